// The `@bounded-mcp/mcp-adapter/settings` entry: the settings table and what an app builds its
// command line, config file and --help from (both apps use it). A server author needs only the
// root entry's resolveSettings / createBoundedMcp options.

export {
  ADAPTER_SETTINGS,
  type AdapterSettingsTable,
  STORE_KINDS,
  type StoreKind,
} from "./adapter-settings.js";
export { withoutAdapterVariables } from "./child-environment.js";
export {
  type CommandLine,
  type CommandLineOptions,
  readCommandLine,
} from "./command-line.js";
export type { Environment, SettingsLayers } from "./read-settings.js";
export {
  type ResolvedSettings,
  type ResolveSettingsInput,
  resolveSettingsWith,
  type SettingsWarning,
  type StoreSettings,
} from "./resolve-settings.js";
export {
  defineSetting,
  type RelationContext,
  type RelationProblem,
  type Setting,
  type SettingInputs,
  type SettingKind,
  type SettingRelation,
  type SettingSpec,
  type SettingsTable,
  type SettingValues,
} from "./setting.js";
export { SETTING_KINDS } from "./setting-kinds.js";
export { SETTING_RELATIONS } from "./setting-relations.js";
export type { ParsedValue } from "./setting-values.js";
export type { SettingsIssue } from "./settings-error.js";
export { formatSettingsHelp, type SettingsHelpOptions } from "./settings-help.js";
