//! The serialised rule list read back as the browser reads it: @casl/ability's `can` over the
//! JSON of `user.abilities` (the MongoDB subset [`crate::rules`] emits). The server answers with
//! [`crate::can`]; tests of every process that hands the list to a browser check the two agree.

use serde_json::Value;

fn field<'a>(object: &'a Value, name: &str) -> &'a Value {
    object.get(name).unwrap_or(&Value::Null)
}

fn op_holds(value: &Value, op: &str, arg: &Value) -> bool {
    match op {
        "$in" => arg.as_array().is_some_and(|a| a.contains(value)),
        "$nin" => arg.as_array().is_some_and(|a| !a.contains(value)),
        "$ne" => value != arg,
        "$eq" => value == arg,
        other => panic!("operator {other} is outside the subset the rules emit"),
    }
}

/// MongoDB query semantics on a flat object: every field's test holds; a missing field is null.
pub fn matches_query(query: &Value, object: &Value) -> bool {
    query.as_object().is_some_and(|q| {
        q.iter().all(|(name, test)| {
            let value = field(object, name);
            match test {
                Value::Object(ops) if ops.keys().all(|k| k.starts_with('$')) => {
                    ops.iter().all(|(op, arg)| op_holds(value, op, arg))
                }
                literal => value == literal,
            }
        })
    })
}

/// @casl/ability's `can`: the last relevant rule decides; on a subject type, conditional
/// rules count as grants and conditional inverted rules do not count. A `null` conditions
/// field (as GraphQL returns an absent one) is no condition.
pub fn can(rules: &Value, action: &str, subject: &str, object: Option<&Value>) -> bool {
    let Some(rules) = rules.as_array() else { return false };
    for rule in rules.iter().rev() {
        let names = |key: &str, wanted: &str, wildcard: &str| match &rule[key] {
            Value::String(s) => s == wanted || s == wildcard,
            Value::Array(items) => items.iter().any(|i| i == wanted || i == wildcard),
            _ => false,
        };
        if !names("action", action, "manage") || !names("subject", subject, "all") {
            continue;
        }
        let inverted = rule.get("inverted").and_then(Value::as_bool).unwrap_or(false);
        let conditions = rule.get("conditions").filter(|c| !c.is_null());
        let relevant = match (conditions, object) {
            (None, _) => true,
            (Some(_), None) => !inverted,
            (Some(q), Some(o)) => matches_query(q, o),
        };
        if relevant {
            return !inverted;
        }
    }
    false
}
