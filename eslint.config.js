import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["**/node_modules/**", "**/.next/**", "**/.data/**", ".tools/**", "**/dist/**", "**/next-env.d.ts", "**/migrations/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: "module" },
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-non-null-assertion": "off",
      // env is read only through each package's validated env.ts (STYLE.md, Habits 5)
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "read configuration through the package's env.ts" },
      ],
    },
  },
  {
    files: [
      "**/env.ts",
      "**/*.test.ts",
      "**/test/**",
      "**/testing/**",
      "scripts/**",
      "bench/**",
      "**/logger.ts",
      "**/main.ts",
      "apps/devnet/**",
      "**/*.config.ts",
    ],
    rules: { "no-restricted-properties": "off" },
  },
  { files: ["apps/web/app/**"], languageOptions: { globals: { ...globals.browser } } },
  // A library's internals are reached in one adapter file each, listed in
  // docs/decisions/library-internals.md (STYLE.md, Habits 9).
  {
    files: ["**/*.ts", "**/*.tsx"],
    ignores: ["packages/api/src/trpc.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@trpc/server/unstable-core-do-not-import", "@trpc/server/unstable-core-do-not-import/*"],
              message: "tRPC's internals: only packages/api/src/trpc.ts (docs/decisions/library-internals.md)",
            },
            {
              group: ["*/dist/*", "@*/*/dist/*"],
              message: "a library's internal module: use its public entry point (docs/decisions/library-internals.md)",
            },
          ],
        },
      ],
    },
  },
);
