import { describe, expect, it } from "vitest";
import * as settingsEntry from "./index.js";

describe("the @bounded-mcp/mcp-adapter/settings entry", () => {
  it("exports exactly the settings table and what apps build their command line from", () => {
    expect(Object.keys(settingsEntry).sort()).toEqual([
      "ADAPTER_SETTINGS",
      "SETTING_KINDS",
      "SETTING_RELATIONS",
      "STORE_KINDS",
      "defineSetting",
      "formatSettingsHelp",
      "readCommandLine",
      "resolveSettingsWith",
      "withoutAdapterVariables",
    ]);
  });
});
