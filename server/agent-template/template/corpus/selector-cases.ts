import { invalid, type CorpusCase } from "./corpus-case";

const SELECTOR_KEYS = "allowed keys: kind, permissions, extras";

export const selectorCases: CorpusCase[] = [
  invalid("harness as a bare string", { harness: "core_harness" }, ["harness", '{"kind": "core_harness"}']),
  invalid("harness as an unknown bare string", { harness: "claude" }, [
    "harness",
    'use an object with "kind", e.g. {"kind": "core_harness"}',
  ]),
  invalid("harness unknown key", { harness: { kind: "core_harness", model: "x" } }, [
    "harness.model",
    `unknown selector key "model"; ${SELECTOR_KEYS}`,
  ]),
  invalid(
    "two unknown selector keys are both named",
    { harness: { foo: 1, bar: 2 } },
    ["harness.foo", 'unknown selector key "foo"'],
    ["harness.bar", 'unknown selector key "bar"'],
  ),
  invalid("unknown harness kind", { harness: { kind: "pi_core" } }, [
    "harness.kind",
    "must be one of core_harness, service_harness, external_harness",
  ]),
  invalid("harness default_mode outside the set", { harness: { permissions: { default_mode: "auto" } } }, [
    "harness.permissions.default_mode",
    "acceptEdits",
  ]),
  invalid("harness permissions unknown key", { harness: { permissions: { policy: "auto" } } }, [
    "harness.permissions.policy",
    "allowed keys: default_mode, allow, ask, deny",
  ]),
  invalid("harness allow rules not a list", { harness: { permissions: { allow: "Read" } } }, [
    "harness.permissions.allow",
    "must be an array",
  ]),
  invalid("harness null", { harness: null }, ["harness", "must be an object; got null"]),
  invalid("runner default outside the set", { runner: { permissions: { default: "auto" } } }, [
    "runner.permissions.default",
    "must be one of allow, ask, deny, allow_reads",
  ]),
  invalid("runner unknown key", { runner: { policy: "allow" } }, [
    "runner.policy",
    `unknown selector key "policy"; ${SELECTOR_KEYS}`,
  ]),
  invalid("runner kind other than sidecar", { runner: { kind: "inline" } }, ["runner.kind", 'must be "sidecar"']),
  invalid("runner as a bare string", { runner: "sidecar" }, ["runner", '{"kind": "sidecar"}']),
  invalid("runner permissions unknown key", { runner: { permissions: { tools: {} } } }, [
    "runner.permissions.tools",
    "allowed keys: default",
  ]),
  invalid("sandbox as a bare string", { sandbox: "daytona_sandbox" }, ["sandbox", '{"kind": "daytona_sandbox"}']),
  invalid("sandbox unknown key", { sandbox: { kind: "local", network: "off" } }, [
    "sandbox.network",
    `unknown selector key "network"; ${SELECTOR_KEYS}`,
  ]),
  invalid("unknown sandbox kind", { sandbox: { kind: "daytona" } }, [
    "sandbox.kind",
    "must be one of local, daytona_sandbox",
  ]),
  invalid("network mode outside the set", { sandbox: { permissions: { network: { mode: "restricted" } } } }, [
    "sandbox.permissions.network.mode",
    "must be one of on, off, allowlist",
  ]),
  invalid(
    "allowlist entry that is a host name",
    { sandbox: { permissions: { network: { mode: "allowlist", allowlist: ["api.example.com"] } } } },
    ["sandbox.permissions.network.allowlist[0]", "CIDR range"],
  ),
  invalid(
    "allowlist entry without prefix length",
    { sandbox: { permissions: { network: { mode: "allowlist", allowlist: ["10.0.0.1"] } } } },
    ["sandbox.permissions.network.allowlist[0]", "CIDR range"],
  ),
  invalid(
    "IPv6 range with a prefix over 128",
    { sandbox: { permissions: { network: { mode: "allowlist", allowlist: ["fd00::/129"] } } } },
    ["sandbox.permissions.network.allowlist[0]", "CIDR range"],
  ),
  invalid("filesystem outside the set", { sandbox: { permissions: { filesystem: "rw" } } }, [
    "sandbox.permissions.filesystem",
    "must be one of on, readonly, off",
  ]),
  invalid("enforcement outside the set", { sandbox: { permissions: { enforcement: "lenient" } } }, [
    "sandbox.permissions.enforcement",
    "must be one of strict, best_effort",
  ]),
  invalid("sandbox permissions unknown key", { sandbox: { permissions: { processes: "off" } } }, [
    "sandbox.permissions.processes",
    "allowed keys: network, filesystem, enforcement",
  ]),
  invalid("network unknown key", { sandbox: { permissions: { network: { mode: "on", domains: [] } } } }, [
    "sandbox.permissions.network.domains",
    "allowed keys: mode, allowlist",
  ]),
  invalid("sandbox extras as a string", { sandbox: { extras: "snap" } }, ["sandbox.extras", "must be an object"]),
];
