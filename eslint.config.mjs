// Lint: typescript-eslint's recommended rules (syntax only: type-aware rules would triple the
// time of a CI step that runs on every change), Prettier for layout (`npm run lint` checks it),
// and the import boundaries written down in ARCHITECTURE.md. The layers of server/ and which area
// owns which table are read from the folders and the schema files (scripts/lint/, its README).
// The import graph as a whole (no cycles, the same layers) is checked by dependency-cruiser
// (.dependency-cruiser.cjs), which sees through re-exports where an ESLint rule cannot.
import js from "@eslint/js";
import nextPlugin from "@next/eslint-plugin-next";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";
import { rules as boundaryRules } from "./scripts/lint/eslint-rules.mjs";

/** "No eslint-disable without a reason on the same line": `-- <reason>` after the rule names. */
const disableNeedsReason = {
  meta: {
    type: "problem",
    schema: [],
    messages: { reason: "Say why on the same line: `eslint-disable... <rule> -- <reason>`." },
  },
  create(context) {
    return {
      Program() {
        for (const comment of context.sourceCode.getAllComments()) {
          const text = comment.value.trim();
          if (/^eslint-disable/.test(text) && !/\s--\s+\S/.test(text))
            context.report({ loc: comment.loc, messageId: "reason" });
        }
      },
    };
  },
};

export default tseslint.config(
  {
    ignores: [
      ".next/**",
      ".next-*/**",
      "node_modules/**",
      ".data/**",
      "drizzle/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // React's rules of hooks and its compiler's checks, and Next.js's own, for the browser code.
  { files: ["components/**/*.{ts,tsx}", "app/**/*.{ts,tsx}"], ...reactHooks.configs.flat["recommended-latest"] },
  {
    files: ["components/**/*.{ts,tsx}", "app/**/*.{ts,tsx}"],
    plugins: { "@next/next": nextPlugin },
    rules: { ...nextPlugin.configs.recommended.rules, ...nextPlugin.configs["core-web-vitals"].rules },
  },
  {
    plugins: { local: { rules: { "disable-needs-reason": disableNeedsReason, ...boundaryRules } } },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "local/disable-needs-reason": "error",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-empty": ["error", { allowEmptyCatch: true }],
    },
  },
  {
    // The browser side: type-only imports of server/ (tRPC's AppRouter, wire types) are erased at
    // build time; values the browser needs live in shared/.
    files: ["components/**/*.{ts,tsx}"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/server", "@/server/*"],
              allowTypeImports: true,
              message: "components/ run in the browser: import values from shared/, types only from server/.",
            },
          ],
        },
      ],
    },
  },
  {
    // Pages and route files reach server/ only through an area's public door (its index.ts).
    files: ["app/**/*.{ts,tsx}"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^@/server/(?!core/)[^/]+/.+",
              allowTypeImports: true,
              message:
                "app/ imports an area of server/ through its index.ts (`@/server/<area>`); server/core modules directly.",
            },
          ],
        },
      ],
    },
  },
  {
    // Imports between server/'s folders point down the layers; a folder no rule names (a feature
    // area without index.ts, a declared layer without its folder) fails. scripts/lint/README.md.
    files: ["server/**/*.ts", "scripts/lint/server-layers.cjs"],
    rules: { "local/server-layers": "error" },
  },
  {
    // Each area owns its tables: no file of server/<area>/ names another area's table.
    files: ["server/**/*.ts"],
    ignores: ["server/boot/**", "server/**/*.test.ts"],
    rules: { "local/area-owns-its-tables": "error" },
  },
  {
    files: ["shared/**/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/server", "@/server/*"],
              message: "shared/ is imported by the browser: it imports nothing from server/.",
            },
          ],
        },
      ],
    },
  },
  {
    // One UUID pattern (shared/ids.ts): copies drift apart (case, version) and disagree on what an
    // id is. Caught in regex literals and in the strings and templates a RegExp is built from.
    files: ["**/*.{ts,tsx}"],
    ignores: ["shared/ids.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        ...[
          "Literal[regex.pattern=/\\{8\\}-/]",
          "Literal[value=/\\{8\\}-/]",
          "TemplateElement[value.raw=/\\{8\\}-/]",
        ].map((selector) => ({
          selector,
          message: "A UUID pattern: use isUuid, UUID_PATTERN or UUID_V7_PATTERN from shared/ids.ts.",
        })),
      ],
    },
  },
  {
    files: ["tests/**/*.ts", "e2e/**/*.ts", "bench/**/*.ts", "**/*.test.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off", "@typescript-eslint/no-non-null-assertion": "off" },
  },
  {
    // CommonJS files (dependency-cruiser's config and the lint helpers it loads) load with require.
    files: ["**/*.cjs"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    files: ["**/*.{js,mjs,cjs}"],
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        Buffer: "readonly",
        URL: "readonly",
        require: "readonly",
        module: "writable",
        __dirname: "readonly",
      },
    },
  },
);
