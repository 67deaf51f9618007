import { z } from "zod";
import type { SettingKind } from "./setting.js";
import {
  formatByteSize,
  formatDuration,
  type ParsedValue,
  parseBoolean,
  parseByteSize,
  parseDuration,
  parseInteger,
  parseText,
} from "./setting-values.js";

/**
 * A schema that reads text with `parse` (flags and the environment give text) and passes any
 * other input (a config file's JSON, a value given in code) as it is; `value` then checks the
 * result. Every message follows the source: `--inline-bytes 40: must be at least 4096`.
 */
function fromText<Value>(
  parse: (text: string) => ParsedValue<Value>,
  value: z.ZodType<Value>,
): z.ZodType<Value> {
  return z
    .unknown()
    .transform((input, context) => {
      if (typeof input !== "string") return input;
      const parsed = parse(input);
      if (parsed.ok) return parsed.value;
      context.addIssue({ code: "custom", message: `expected ${parsed.expected}` });
      return z.NEVER;
    })
    .pipe(value);
}

interface Bounds {
  min?: number;
  max?: number;
}

function bounded(base: z.ZodNumber, bounds: Bounds, show: (value: number) => string): z.ZodNumber {
  let schema = base;
  if (bounds.min !== undefined) {
    schema = schema.min(bounds.min, { error: `must be at least ${show(bounds.min)}` });
  }
  if (bounds.max !== undefined) {
    schema = schema.max(bounds.max, { error: `must be at most ${show(bounds.max)}` });
  }
  return schema;
}

function limitsOf(bounds: Bounds, show: (value: number) => string): string[] {
  return [
    ...(bounds.min === undefined || bounds.min === 0 ? [] : [`>= ${show(bounds.min)}`]),
    ...(bounds.max === undefined ? [] : [`<= ${show(bounds.max)}`]),
  ];
}

function numberKind(
  parse: (text: string) => ParsedValue<number>,
  expected: string,
  argument: string,
  show: (value: number) => string,
  bounds: Bounds,
): SettingKind<number, number | string> {
  const schema = bounded(z.int({ error: `expected ${expected}` }), bounds, String);
  return {
    schema: fromText(parse, schema),
    argument,
    multiple: false,
    limits: limitsOf(bounds, String),
    show,
  };
}

function nullable<Value, Input>(
  kind: SettingKind<Value, Input>,
): SettingKind<Value | null, Input | null> {
  return {
    ...kind,
    schema: kind.schema.nullable(),
    show: (value) => (value === null ? "none" : kind.show(value)),
  } as SettingKind<Value | null, Input | null>;
}

const withDurationBounds = (
  bounds: Bounds & { argument?: string },
): SettingKind<number, number | string> => {
  const schema = bounded(
    z.int({ error: "expected milliseconds or a duration such as 30m, 24h or 7d" }),
    bounds,
    formatDuration,
  );
  return {
    schema: fromText(parseDuration, schema),
    argument: bounds.argument ?? "<duration>",
    multiple: false,
    limits: limitsOf(bounds, formatDuration),
    show: formatDuration,
  };
};

function text(
  options: { argument?: string; pattern?: RegExp; message?: string } = {},
): SettingKind<string, string> {
  let value = z
    .string({ error: "expected a text value" })
    .trim()
    .min(1, "expected a non-empty value");
  if (options.pattern !== undefined) {
    value = value.regex(options.pattern, { error: options.message ?? "has the wrong form" });
  }
  return {
    schema: fromText((input) => ({ ok: true, value: input }), value),
    argument: options.argument ?? "<text>",
    multiple: false,
    limits: [],
    show: (shown) => shown,
  };
}

/**
 * The kinds of value a setting can hold. Each reads text (flags, the environment) and typed
 * values (config file, code), checks its bounds with a message that follows the source
 * (`--inline-bytes 40: must be at least 4096`), and writes values back as a person would.
 */
export const SETTING_KINDS = Object.freeze({
  /** A byte count: `32768`, `32KiB`, `64MB` (KiB/MiB/GiB are powers of 1024). */
  byteSize: (bounds: Bounds = {}) =>
    numberKind(
      parseByteSize,
      "a byte count such as 32768, 32KiB or 64MiB",
      "<bytes>",
      formatByteSize,
      bounds,
    ),
  /** A duration in milliseconds: `250`, `30m`, `24h`, `7d`. */
  duration: withDurationBounds,
  /** A whole number. */
  count: (bounds: Bounds = {}) => numberKind(parseInteger, "a whole number", "<n>", String, bounds),
  /** A boolean: `--x`/`--no-x` on the command line, true/false (1/0, yes/no, on/off) in text. */
  boolean: (): SettingKind<boolean, boolean | string> => ({
    schema: fromText(
      parseBoolean,
      z.boolean({ error: "expected true or false (also 1/0, yes/no, on/off)" }),
    ),
    argument: null,
    multiple: false,
    limits: [],
    show: (value) => (value ? "on" : "off"),
  }),
  /** Non-empty text, trimmed; optionally matching a pattern. */
  text,
  /** One of a few words. */
  oneOf: <Word extends string>(words: readonly [Word, ...Word[]], argument = "<kind>") => {
    const value = z
      .string({ error: `expected one of ${words.join(", ")}` })
      .trim()
      .pipe(z.enum(words, { error: `expected one of ${words.join(", ")}` }));
    return {
      schema: fromText((input) => ({ ok: true, value: input }), value) as z.ZodType<Word>,
      argument,
      multiple: false,
      limits: [],
      show: (shown: Word) => shown,
    } satisfies SettingKind<Word, Word>;
  },
  /** An http(s) URL, kept as text. */
  url: (argument = "<url>"): SettingKind<string, string> => {
    const value = z
      .string({ error: "expected an http(s) URL" })
      .trim()
      .refine((candidate) => /^https?:\/\//i.test(candidate) && URL.canParse(candidate), {
        error: "expected an http(s) URL",
      });
    return {
      schema: fromText((input) => parseText(input), value),
      argument,
      multiple: false,
      limits: [],
      show: (shown) => shown,
    };
  },
  /**
   * A list: the flag repeated, a `separator`-separated text in the environment, an array in a
   * file (or an object, when `fromObject` turns one into items). Each item is read with `item`
   * (text in, value or why not out).
   */
  list: <Item>(
    item: (text: string) => ParsedValue<Item>,
    options: {
      argument: string;
      separator?: RegExp;
      fromObject?: (value: Record<string, unknown>) => string[];
    },
  ): SettingKind<Item[], string | string[]> => {
    const separator = options.separator ?? /,/;
    const fromObject = options.fromObject;
    const items = z
      .unknown()
      .transform((input) =>
        fromObject !== undefined &&
        typeof input === "object" &&
        input !== null &&
        !Array.isArray(input)
          ? fromObject(input as Record<string, unknown>)
          : input,
      )
      .pipe(z.union([z.string(), z.array(z.string())], { error: "expected a list of text values" }))
      .transform((input, context) => {
        const texts = (typeof input === "string" ? input.split(separator) : input)
          .map((entry) => entry.trim())
          .filter((entry) => entry !== "");
        const values: Item[] = [];
        for (const entry of texts) {
          const parsed = item(entry);
          if (parsed.ok) values.push(parsed.value);
          else {
            context.addIssue({
              code: "custom",
              message: `expected ${parsed.expected}, got ${JSON.stringify(entry)}`,
            });
            return z.NEVER;
          }
        }
        return values;
      });
    return {
      schema: items,
      argument: options.argument,
      multiple: true,
      limits: [],
      show: (values) => (values.length === 0 ? "none" : values.map(String).join(", ")),
    };
  },
  /** Any kind that may also be `null` ("none"): a JSON null or code's null give it. */
  nullable,
  /**
   * A value an app reads from text itself (`--listen http://127.0.0.1:0/mcp`); a non-text input
   * (a default, a value given in code) is taken when `accepts` holds for it.
   */
  parsed: <Value>(
    parse: (text: string) => ParsedValue<Value>,
    options: {
      argument: string;
      show: (value: Value) => string;
      accepts: (value: unknown) => value is Value;
    },
  ): SettingKind<Value, string | Value> => ({
    schema: z.unknown().transform((input, context): Value => {
      if (typeof input !== "string" && options.accepts(input)) return input;
      const parsed = parse(typeof input === "string" ? input : "");
      if (typeof input === "string" && parsed.ok) return parsed.value;
      context.addIssue({
        code: "custom",
        message: `expected ${parsed.ok ? "text" : parsed.expected}`,
      });
      return z.NEVER;
    }),
    argument: options.argument,
    multiple: false,
    limits: [],
    show: options.show,
  }),
});
