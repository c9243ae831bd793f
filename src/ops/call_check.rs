//! The argument check of one registered name, with a memory of the keyword-free calls that
//! passed it.
//!
//! A call without keywords whose positionals are all of a few plain kinds (numbers, bools,
//! strings, `None`, dtypes, tensors told apart by what the parser looks at) passes or fails
//! by those kinds alone: no declaration reads their values. So once a call of some kinds
//! passed, every later call of the same kinds passes, and a loop that calls `x.view(16)` or
//! `x.transpose(0, 1)` is checked once (`tests/signatures.rs` keeps the declarations
//! honest; this only avoids asking them again).

use std::cell::Cell;

use rhai::Dynamic;

use super::args::Args;
use super::errors::RhaiResult;
use super::signature::Declaration;
use crate::core::dtype::DType;
use crate::core::tensor::Tensor;

/// How many kinds of calls one name remembers (a direct-mapped table: a name called two
/// ways in one loop keeps both, as a rule).
const SLOTS: usize = 4;

/// One name's check: its declaration (or, for a name being added, the most positionals its
/// body reads), and the kinds of calls that passed.
pub struct CallCheck {
    declared: Option<&'static Declaration>,
    name: String,
    max: usize,
    /// Keys (`kinds_key`) of calls that passed; 0 is no key.
    passed: [Cell<u64>; SLOTS],
}

impl CallCheck {
    /// The check of `name`, declared as `declared`, whose body reads at most `max`
    /// positionals.
    pub fn new(declared: Option<&'static Declaration>, name: &str, max: usize) -> CallCheck {
        CallCheck {
            declared,
            name: name.to_string(),
            max,
            passed: Default::default(),
        }
    }

    /// Raises PyTorch's `TypeError` if the call does not fit the declaration.
    #[inline(always)]
    pub fn check(&self, a: &Args) -> RhaiResult<()> {
        if !a.kw.is_empty() {
            return self.ask(a);
        }
        match kinds_key(&a.pos) {
            Some(key) => self.remembered(key, || a),
            None => self.ask(a),
        }
    }

    /// `check` for a call without arguments, whose key is known (`kinds_key(&[])`).
    #[inline(always)]
    pub fn check_without_arguments(&self) -> RhaiResult<()> {
        self.remembered(1, Args::default)
    }

    /// Passes at once if calls of kinds `key` passed before; else asks the declaration
    /// about the call (made only then) and remembers a pass.
    #[inline(always)]
    fn remembered<A: std::borrow::Borrow<Args>>(
        &self,
        key: u64,
        call: impl FnOnce() -> A,
    ) -> RhaiResult<()> {
        let slot = &self.passed[slot_of(key)];
        if slot.get() == key {
            return Ok(());
        }
        self.ask(call().borrow())?;
        slot.set(key);
        Ok(())
    }

    /// The declaration's answer.
    #[inline(never)]
    fn ask(&self, a: &Args) -> RhaiResult<()> {
        match self.declared {
            Some(d) => d.check(a),
            None => a.at_most(&self.name, self.max),
        }
    }
}

/// Where `key` is remembered.
#[inline(always)]
fn slot_of(key: u64) -> usize {
    (key ^ (key >> 8)) as usize % SLOTS
}

/// The kinds of `pos` as one number (a leading 1, then four bits per positional), or `None`
/// when some value's acceptance could depend on more than its kind (a list's elements, a
/// map, another type) or there are too many to pack.
#[inline(always)]
fn kinds_key(pos: &[Dynamic]) -> Option<u64> {
    if pos.len() > 15 {
        return None;
    }
    let mut key = 1u64;
    for v in pos {
        key = key << 4 | kind(v)?;
    }
    Some(key)
}

/// A value's kind, as far as any declaration's type test can tell values apart: a tensor
/// is told by whether it is 0-dim, and if so whether it is an integer one (which is also
/// taken where an int is).
#[inline(always)]
fn kind(v: &Dynamic) -> Option<u64> {
    if v.is_int() {
        Some(1)
    } else if v.is_float() {
        Some(2)
    } else if v.is_bool() {
        Some(3)
    } else if v.is_string() {
        Some(4)
    } else if v.is_unit() {
        Some(5)
    } else {
        object_kind(v)
    }
}

/// `kind` of a value that is not a plain Rhai one.
#[inline(never)]
fn object_kind(v: &Dynamic) -> Option<u64> {
    if let Some(t) = v.read_lock::<Tensor>() {
        Some(match (t.ndim(), t.dtype()) {
            (0, d) if d.is_integral() && d != DType::Bool => 6,
            (0, _) => 7,
            _ => 8,
        })
    } else if v.is::<DType>() {
        Some(9)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tensor(sizes: Vec<i64>, dtype: DType) -> Dynamic {
        Dynamic::from(Tensor::zeros(sizes, dtype).unwrap())
    }

    #[test]
    fn kinds_tell_apart_what_declarations_test() {
        let kinds = |v: Dynamic| kind(&v);
        assert_eq!(kinds(Dynamic::from(1_i64)), Some(1));
        assert_eq!(kinds(Dynamic::from(1.0_f64)), Some(2));
        assert_eq!(kinds(Dynamic::from(true)), Some(3));
        assert_eq!(kinds(Dynamic::from("a")), Some(4));
        assert_eq!(kinds(Dynamic::UNIT), Some(5));
        assert_eq!(kinds(tensor(vec![], DType::Int64)), Some(6));
        assert_eq!(kinds(tensor(vec![], DType::Bool)), Some(7));
        assert_eq!(kinds(tensor(vec![], DType::Float32)), Some(7));
        assert_eq!(kinds(tensor(vec![2], DType::Int64)), Some(8));
        assert_eq!(kinds(Dynamic::from(DType::Float32)), Some(9));
        assert_eq!(kinds(Dynamic::from(rhai::Array::new())), None);
    }

    #[test]
    fn keys_differ_by_count_and_order() {
        let one = Dynamic::from(1_i64);
        let half = Dynamic::from(0.5_f64);
        let keys = [
            kinds_key(&[]),
            kinds_key(std::slice::from_ref(&one)),
            kinds_key(&[one.clone(), half.clone()]),
            kinds_key(&[half, one]),
        ];
        for (i, a) in keys.iter().enumerate() {
            assert!(a.is_some_and(|k| k != 0));
            for b in &keys[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }

    fn call(pos: Vec<Dynamic>) -> Args {
        Args::from_parts(pos, rhai::Map::new(), &Args::default())
    }

    #[test]
    fn a_remembered_kind_still_refuses_other_kinds() {
        let check = CallCheck::new(
            crate::ops::signature::lookup("Tensor", "transpose"),
            "transpose",
            2,
        );
        let ints = call(vec![Dynamic::from(0_i64), Dynamic::from(1_i64)]);
        assert!(check.check(&ints).is_ok());
        assert!(check.check(&ints).is_ok(), "the same kinds pass again");
        let floats = call(vec![Dynamic::from(0.5_f64), Dynamic::from(1_i64)]);
        let err = check.check(&floats).unwrap_err().to_string();
        assert!(err.contains("transpose(): argument 'dim0'"), "{err}");
        let three = call(vec![Dynamic::from(0_i64); 3]);
        assert!(check.check(&three).is_err());
        assert!(check.check(&ints).is_ok());
    }

    #[test]
    fn calls_without_arguments_are_remembered_only_once_passed() {
        let needs_two = CallCheck::new(
            crate::ops::signature::lookup("Tensor", "transpose"),
            "transpose",
            2,
        );
        assert!(needs_two.check_without_arguments().is_err());
        assert!(needs_two.check_without_arguments().is_err());
        let takes_none = CallCheck::new(crate::ops::signature::lookup("Tensor", "t"), "t", 0);
        assert!(takes_none.check_without_arguments().is_ok());
        assert!(takes_none.check_without_arguments().is_ok());
        assert!(takes_none.check(&call(vec![Dynamic::from(1_i64)])).is_err());
    }

    #[test]
    fn calls_with_keywords_are_always_asked() {
        let check = CallCheck::new(crate::ops::signature::lookup("Tensor", "sum"), "sum", 2);
        let mut kw = rhai::Map::new();
        kw.insert("dimm".into(), Dynamic::from(1_i64));
        let a = Args::from_parts(vec![], kw, &Args::default());
        assert!(check.check(&a).is_err());
        assert!(check.check(&a).is_err());
        assert!(check.check(&call(vec![])).is_ok());
    }
}
