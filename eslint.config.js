import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The one-way import flow of the architecture:
 * lib <- domain <- {providers, storage, tools, sync} <- {state, search} <- voice <- hooks <- components <- app.
 * search/ is the full-text index, run in a worker that reads storage itself. tools/ is where
 * tools come from (MCP servers); the UI reads only its types and sentences.
 * UI regions (chat, sidebar, settings, palette, artifacts, projects) never import each other (but
 * for the feature uses below), providers/ or storage/.
 */
/**
 * Features built on another region's parts: the artifact panel and the project dialogs show the
 * chat's markdown, model list and file chips; a reply's code block opens the artifact panel; the
 * sidebar marks projects as their settings do; a persona's model is chosen from the chat's model list.
 */
/** @type {Record<string, string[]>} */
const featureUses = {
  chat: ['artifacts'],
  sidebar: ['projects'],
  artifacts: ['chat'],
  projects: ['chat'],
  settings: ['chat'],
};

const layers = [
  { type: 'lib', pattern: 'src/lib', allow: [] },
  { type: 'domain', pattern: 'src/domain', allow: ['lib'] },
  { type: 'providers', pattern: 'src/providers', allow: ['lib', 'domain'] },
  { type: 'storage', pattern: 'src/storage', allow: ['lib', 'domain'] },
  { type: 'tools', pattern: 'src/tools', allow: ['lib', 'domain'] },
  // Replication with a CouchDB the user owns (docs/sync.md): the protocol over fetch, no storage.
  { type: 'sync', pattern: 'src/sync', allow: ['lib', 'domain'] },
  { type: 'state', pattern: 'src/state', allow: ['lib', 'domain', 'providers', 'storage', 'tools', 'sync'] },
  { type: 'search', pattern: 'src/search', allow: ['lib', 'domain', 'storage'] },
  // Speech in and out (docs/voice.md): the microphone, the players and the speech requests, over the chat.
  { type: 'voice', pattern: 'src/voice', allow: ['lib', 'domain', 'providers', 'storage', 'state'] },
  { type: 'hooks', pattern: 'src/hooks', allow: ['lib', 'domain', 'state', 'search'] },
  { type: 'ui', pattern: 'src/components/ui', allow: ['lib'] },
  ...['chat', 'sidebar', 'settings', 'palette', 'artifacts', 'projects'].map((region) => ({
    type: region,
    pattern: `src/components/${region}`,
    allow: ['lib', 'domain', 'state', 'hooks', 'ui', 'tools', 'voice', ...(featureUses[region] ?? [])],
  })),
  {
    type: 'app',
    pattern: 'src/app',
    allow: [
      'lib',
      'domain',
      'providers',
      'storage',
      'tools',
      'sync',
      'state',
      'search',
      'voice',
      'hooks',
      'ui',
      'chat',
      'sidebar',
      'settings',
      'palette',
      'artifacts',
      'projects',
    ],
  },
];

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'test-results', 'playwright-report', 'bench/results'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: { '@typescript-eslint/consistent-type-imports': 'error' },
  },
  {
    // React code lives in src/; Playwright's fixture `use` is not a React hook.
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['**/*.{js,mjs}', 'tools/**', 'bench/**', 'tests/**', '*.config.ts'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // Runs in the diagram frame, a browser document.
    files: ['tools/diagram-frame/frame.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The app's service worker.
    files: ['tools/service-worker/sw.js'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.ts'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } },
      'boundaries/elements': layers.map(({ type, pattern }) => ({ type, pattern })),
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          policies: [
            ...layers.map(({ type, allow }) => ({
              from: { element: { type } },
              allow: { to: { element: { types: { anyOf: [type, ...allow] } } } },
            })),
          ],
        },
      ],
    },
  },
);
