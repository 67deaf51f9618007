import type { RelationContext, RelationProblem, SettingRelation } from "./setting.js";

type Comparison = "<" | "<=" | ">" | ">=";

const WORDS: Record<Comparison, string> = {
  "<": "less than",
  "<=": "at most",
  ">": "more than",
  ">=": "at least",
};
const REVERSED: Record<Comparison, Comparison> = { "<": ">", "<=": ">=", ">": "<", ">=": "<=" };

function holds(left: number, comparison: Comparison, right: number): boolean {
  if (comparison === "<") return left < right;
  if (comparison === "<=") return left <= right;
  if (comparison === ">") return left > right;
  return left >= right;
}

function withReason(text: string, reason: string | undefined): string {
  return reason === undefined ? text : `${text}, ${reason}`;
}

/**
 * `left <comparison> right` between two numeric settings (skipped while either is null). The
 * message blames the one the user set: `--preview-bytes 40000: must be less than --inline-bytes
 * (default 32KiB), so that ...`, or from the other side when only `right` was set.
 */
function compare(
  left: string,
  comparison: Comparison,
  right: string,
  reason?: string,
): SettingRelation {
  return {
    rule: `${left} ${comparison} ${right}`,
    settings: [left, right],
    check({ values, isSet }: RelationContext): RelationProblem | undefined {
      const a = values[left];
      const b = values[right];
      if (typeof a !== "number" || typeof b !== "number" || holds(a, comparison, b)) return;
      if (!isSet(left) && isSet(right)) {
        return {
          setting: right,
          problem: (name) =>
            withReason(`must be ${WORDS[REVERSED[comparison]]} ${name(left)}`, reason),
        };
      }
      return {
        setting: left,
        problem: (name) => withReason(`must be ${WORDS[comparison]} ${name(right)}`, reason),
      };
    },
  };
}

/** `setting` (when `when` holds for its value, described by `whenText`) needs `other` set. */
function needs(
  setting: string,
  when: { text: string; holds: (value: unknown) => boolean },
  other: string,
  reason: string,
): SettingRelation {
  return {
    rule: `${setting}${when.text === "" ? "" : ` ${when.text}`} needs ${other}`,
    settings: [setting, other],
    check({ values }) {
      if (!when.holds(values[setting]) || values[other] !== null) return;
      return { setting, problem: (name) => `needs ${name(other)} (${reason})` };
    },
  };
}

/** `setting`, once set, applies only while `other` is unset or `accepted` holds for it. */
function onlyWith(
  setting: string,
  other: string,
  accepted: { text: string; holds: (value: unknown) => boolean },
): SettingRelation {
  return {
    rule: `${setting} only with ${other} ${accepted.text}`,
    settings: [setting, other],
    check({ values }) {
      const otherValue = values[other];
      if (values[setting] === null || otherValue === null || accepted.holds(otherValue)) return;
      return {
        setting,
        problem: (name) => `applies to ${other} ${accepted.text} only, not to ${name(other)}`,
      };
    },
  };
}

/**
 * Builders of the rules between settings. `compare` and `needs` cover the usual cases; `custom`
 * takes a rule written by hand (checked only when every setting it names is valid).
 */
export const SETTING_RELATIONS = Object.freeze({
  compare,
  needs,
  onlyWith,
  custom: (relation: SettingRelation): SettingRelation => relation,
});
