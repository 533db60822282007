import { invalid, type CorpusCase } from "./corpus-case";

const skill = (extra: Record<string, unknown>) => ({
  skills: [{ name: "pdf-tools", description: "d", body: "b", ...extra }],
});
const path = (value: string) => skill({ files: [{ path: value, content: "" }] });

export const skillCases: CorpusCase[] = [
  invalid("empty skill name", skill({ name: "" }), ["skills[0].name", "must not be empty"]),
  invalid("skill name with uppercase", skill({ name: "PDF" }), ["skills[0].name", '"-"-separated groups']),
  invalid("skill name with trailing hyphen", skill({ name: "pdf-" }), [
    "skills[0].name",
    "lowercase letters and digits",
  ]),
  invalid("skill name with double hyphen", skill({ name: "pdf--tools" }), [
    "skills[0].name",
    "lowercase letters and digits",
  ]),
  invalid("skill name of 65 characters", skill({ name: "a".repeat(65) }), ["skills[0].name", "at most 64 characters"]),
  invalid("skill without description", { skills: [{ name: "a", body: "b" }] }, [
    "skills[0].description",
    "is required",
  ]),
  invalid("empty skill description", skill({ description: "" }), ["skills[0].description", "must not be empty"]),
  invalid("skill description of 1025 characters", skill({ description: "d".repeat(1025) }), [
    "skills[0].description",
    "at most 1024 characters; got 1025",
  ]),
  invalid("skill description of 1025 emoji", skill({ description: "😀".repeat(1025) }), [
    "skills[0].description",
    "at most 1024 characters; got 1025",
  ]),
  invalid("empty skill body", skill({ body: "" }), ["skills[0].body", "must not be empty"]),
  invalid("skill body of 50,001 characters", skill({ body: "b".repeat(50_001) }), [
    "skills[0].body",
    "at most 50000 characters",
  ]),
  invalid("skill without body", { skills: [{ name: "a", description: "d" }] }, ["skills[0].body", "is required"]),
  invalid("file path with leading slash", path("/etc/passwd"), ["skills[0].files[0].path", 'remove the leading "/"']),
  invalid("file path with backslash", path("scripts\\run.py"), [
    "skills[0].files[0].path",
    "backslashes are not allowed",
  ]),
  invalid("file path with a .. segment", path("scripts/../../x"), [
    "skills[0].files[0].path",
    'must not contain a ".." segment',
  ]),
  invalid("file path starting with ..", path("../x"), ["skills[0].files[0].path", '".." segment']),
  invalid("file path that is only ..", path(".."), ["skills[0].files[0].path", '".." segment']),
  invalid("root SKILL.md", path("SKILL.md"), ["skills[0].files[0].path", "root SKILL.md"]),
  invalid("root SKILL.md behind ./", path("./SKILL.md"), ["skills[0].files[0].path", "root SKILL.md"]),
  invalid("empty file path", path(""), ["skills[0].files[0].path", "must not be empty"]),
  invalid("file path of 256 characters", path("p".repeat(256)), ["skills[0].files[0].path", "at most 255 characters"]),
  invalid("file content of 200,001 characters", skill({ files: [{ path: "a", content: "c".repeat(200_001) }] }), [
    "skills[0].files[0].content",
    "at most 200000 characters",
  ]),
  invalid("file without content", skill({ files: [{ path: "a" }] }), ["skills[0].files[0].content", "is required"]),
  invalid(
    "executable file without allow_executable_files",
    skill({ files: [{ path: "run.sh", content: "", executable: true }] }),
    ["skills[0].files[0].executable", "allow_executable_files: true"],
  ),
  invalid(
    "executable file and a bad path in one skill",
    skill({ files: [{ path: "/run.sh", content: "", executable: true }] }),
    ["skills[0].files[0].path", "leading"],
    ["skills[0].files[0].executable", "allow_executable_files"],
  ),
  invalid("file unknown key", skill({ files: [{ path: "a", content: "", mode: "0755" }] }), [
    "skills[0].files[0].mode",
    "allowed keys: path, content, executable",
  ]),
  invalid("skill unknown key", skill({ tags: ["x"] }), ["skills[0].tags", 'unknown key "tags"']),
  invalid(
    "unresolved embed reference in skills",
    {
      skills: [
        {
          "@svc.embed": {
            "@svc.references": { workflow: { slug: "s" } },
            "@svc.selector": { path: "parameters.skill" },
          },
        },
      ],
    },
    ["skills[0]", "unresolved embed reference"],
  ),
  invalid("disable_model_invocation as a string", skill({ disable_model_invocation: "yes" }), [
    "skills[0].disable_model_invocation",
    "must be a boolean",
  ]),
];
