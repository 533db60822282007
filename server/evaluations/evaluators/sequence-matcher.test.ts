import { describe, expect, it } from "vitest";
import { levenshteinDistance, levenshteinSimilarity } from "./levenshtein";
import { sequenceRatio } from "./sequence-matcher";

describe("sequenceRatio (difflib.SequenceMatcher.ratio)", () => {
  it("gives Python's figures", () => {
    // Values printed by CPython 3.12: SequenceMatcher(None, a, b).ratio()
    expect(sequenceRatio("abcd", "bcde")).toBe(0.75);
    expect(sequenceRatio("", "")).toBe(1);
    expect(sequenceRatio("abc", "")).toBe(0);
    expect(sequenceRatio("The capital is Paris", "Paris is the capital")).toBeCloseTo(0.5, 12);
    expect(sequenceRatio("private Thread currentThread;", "private volatile Thread currentThread;")).toBeCloseTo(
      0.8656716417910447,
      12,
    );
    // autojunk: 'a' is popular in a 200+ long b, so only the extension finds it.
    expect(sequenceRatio("b", `${"a".repeat(199)}b`)).toBeCloseTo(0.009950248756218905, 12);
    expect(sequenceRatio("aab", `${"a".repeat(200)}b`)).toBeCloseTo(0.029411764705882353, 12);
    // Random strings, ratios from CPython (the 300-character pair exercises autojunk).
    expect(sequenceRatio("baca ", "dddbadadd ad")).toBeCloseTo(0.47058823529411764, 12);
    expect(
      sequenceRatio(
        "cbacaaaa b ab  bcbb ca abcac bcc  a b  bcca ab c a",
        "dac   dbb bab  bd c cdc  ad b  bdadc  b ddcdca    cd abb ",
      ),
    ).toBeCloseTo(0.5420560747663551, 12);
    expect(
      sequenceRatio(
        "bacaaaa acbcabccabbcbcc c  aac c bcacb aba bab  b ba c acbbacaaccb cbaab ba bcab b a c ac cabbcbc bca c baaabbbbccccccacb baca a bbca abaccca caacaaa aabb ba bbba  cc cabcaaacc  c aac acb ccbbcbbcaca acb cacbccbcaabbab acaaaacc  bacabbbbccacbbbacbbc babca  c  a cbc a aacbbbcc  bab abc bbc  b ccbaacb",
        " bccc cbd aa   dbbcdb addcd b a acacab adbdddbcdb dbad  daccbd ab d aa bcbbcb bcc cdb cddab dbcaaa a cba c cd c caaddcc dc daddb ac  bd  dcbd  bc ad ddc  adbcadbdcba accd cbdcdbd ac a dacadab badc cb bbccaa cd  abc cc bd dbdc cbc ba dcdbcbab d b cd bbbdccdbabcaabdcdabaa abad  dcca babdbdddbbbcd  dbdccd aba",
      ),
    ).toBeCloseTo(0.0, 12);
  });
});

describe("levenshtein", () => {
  it("counts edits and normalises by the longer string", () => {
    expect(levenshteinDistance("kitten", "sitting")).toBe(3);
    expect(levenshteinDistance("", "abc")).toBe(3);
    expect(levenshteinSimilarity("kitten", "sitting")).toBeCloseTo(1 - 3 / 7, 12);
    expect(levenshteinSimilarity("", "")).toBe(1);
    expect(levenshteinSimilarity("héllo", "hello")).toBeCloseTo(0.8, 12);
  });
});
