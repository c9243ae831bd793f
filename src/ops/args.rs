//! Python-style call arguments in Rhai: positional values plus one trailing object map of
//! keyword arguments (registering names for every arity is `registration`'s).

use std::cell::RefCell;
use std::rc::Rc;

use rhai::{Dynamic, Map};
use smallvec::SmallVec;

use super::convert::{self, py_type_name};
use super::errors::{RhaiResult, type_error};
use crate::core::dtype::DType;
use crate::core::scalar::Scalar;
use crate::core::tensor::Tensor;

/// A call's positional arguments: the first four kept inline, so that a call with few
/// arguments (most calls) allocates nothing for them.
pub type Positionals = SmallVec<[Dynamic; 4]>;

/// A call's keyword arguments, read as a map. A call without keywords (most calls) holds
/// no map at all, so making and dropping its arguments costs nothing for them.
#[derive(Debug, Clone, Default)]
pub struct Keywords(Option<Map>);

/// What `Keywords` reads as when there are none.
const NO_KEYWORDS: &Map = &Map::new();

impl Keywords {
    /// Whether no keyword was given.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.0.as_ref().is_none_or(Map::is_empty)
    }

    /// The keywords as a map (empty when none were given).
    pub fn take(self) -> Map {
        self.0.unwrap_or_default()
    }
}

impl From<Map> for Keywords {
    fn from(m: Map) -> Keywords {
        Keywords((!m.is_empty()).then_some(m))
    }
}

impl std::ops::Deref for Keywords {
    type Target = Map;
    #[inline(always)]
    fn deref(&self) -> &Map {
        self.0.as_ref().unwrap_or(NO_KEYWORDS)
    }
}

impl std::ops::DerefMut for Keywords {
    fn deref_mut(&mut self) -> &mut Map {
        self.0.get_or_insert_with(Map::new)
    }
}

/// One call's arguments: positionals and keywords, as Python would receive them.
#[derive(Debug, Clone, Default)]
pub struct Args {
    /// Positional arguments.
    pub pos: Positionals,
    /// Keyword arguments (the trailing object map, if any).
    pub kw: Keywords,
    /// The parameter names the body asked for, kept only while a keyword audit watches the
    /// call (`registration`); shared by clones, so a body that hands its arguments on is
    /// still seen.
    reads: Option<Rc<RefCell<Vec<String>>>>,
}

/// Adds `name` to a watched call's reads.
#[cold]
fn record_read(reads: &RefCell<Vec<String>>, name: &str) {
    reads.borrow_mut().push(name.to_string());
}

/// How many arguments a registered form of an op must take for a call of these
/// positionals and keywords (`Args::given`).
pub fn given(pos: &Positionals, kw: &Keywords) -> usize {
    let map_follows = !kw.is_empty() || pos.last().is_some_and(|v| v.is::<Map>());
    pos.len() + usize::from(map_follows)
}

impl Args {
    /// Splits a trailing object map off as keywords.
    #[inline]
    pub fn new(mut values: Positionals) -> Args {
        let kw = match values.last() {
            Some(v) if v.is::<Map>() => values
                .pop()
                .and_then(|v| v.try_cast::<Map>())
                .map(Keywords::from)
                .unwrap_or_default(),
            _ => Keywords::default(),
        };
        Args {
            pos: values,
            kw,
            reads: None,
        }
    }

    /// Positionals and keywords given apart (a map among the positionals stays one).
    pub fn with_keywords(pos: Positionals, kw: impl Into<Keywords>) -> Args {
        Args {
            pos,
            kw: kw.into(),
            reads: None,
        }
    }

    /// How many arguments a registered form of the call's op must take: the positionals,
    /// and one more for the keyword map when there are keywords or the last positional is
    /// a map (which a keyword map then follows, so it stays positional).
    pub fn given(&self) -> usize {
        given(&self.pos, &self.kw)
    }

    /// Arguments from their parts; `like`'s audit, if any, goes on watching them.
    pub fn from_parts(pos: impl Into<Positionals>, kw: impl Into<Keywords>, like: &Args) -> Args {
        Args {
            pos: pos.into(),
            kw: kw.into(),
            reads: like.reads.clone(),
        }
    }

    /// Starts recording which parameters the body asks for; the record is returned.
    pub fn watch(&mut self) -> Rc<RefCell<Vec<String>>> {
        self.reads.get_or_insert_with(Default::default).clone()
    }

    /// Notes that the body asked for the parameter `name` (only while watched: the check
    /// is all an unwatched call pays).
    #[inline(always)]
    fn note(&self, name: &str) {
        if let Some(reads) = &self.reads {
            record_read(reads, name);
        }
    }

    /// The argument at position `i`, or else the keyword `name`.
    pub fn get(&self, i: usize, name: &str) -> Option<&Dynamic> {
        self.note(name);
        self.pos
            .get(i)
            .or_else(|| self.kw.get(name))
            .filter(|v| !v.is_unit())
    }

    /// Takes the first positional out, or else the keyword `name` (`()` if neither).
    pub fn take_first(&mut self, name: &str) -> Dynamic {
        self.note(name);
        if self.pos.is_empty() {
            self.kw.remove(name).unwrap_or_default()
        } else {
            self.pos.remove(0)
        }
    }

    /// Only the keyword `name` (for keyword-only parameters).
    pub fn kw(&self, name: &str) -> Option<&Dynamic> {
        self.note(name);
        self.kw.get(name).filter(|v| !v.is_unit())
    }

    /// Raises Python's `TypeError` when more than `max` positionals were given.
    pub fn at_most(&self, func: &str, max: usize) -> RhaiResult<()> {
        if self.pos.len() > max {
            return Err(type_error(format!(
                "{func}() takes at most {max} positional argument{} ({} given)",
                if max == 1 { "" } else { "s" },
                self.pos.len()
            )));
        }
        Ok(())
    }

    /// A required argument.
    pub fn req(&self, i: usize, name: &str, func: &str) -> RhaiResult<&Dynamic> {
        self.get(i, name).ok_or_else(|| {
            type_error(format!(
                "{func}() missing required argument '{name}' (pos {})",
                i + 1
            ))
        })
    }

    /// An int argument with a default.
    pub fn int_or(&self, i: usize, name: &str, default: i64) -> RhaiResult<i64> {
        self.get(i, name)
            .map_or(Ok(default), |v| convert::to_int(v, name))
    }

    /// A required int argument.
    pub fn int(&self, i: usize, name: &str, func: &str) -> RhaiResult<i64> {
        convert::to_int(self.req(i, name, func)?, name)
    }

    /// An optional int argument.
    pub fn opt_int(&self, i: usize, name: &str) -> RhaiResult<Option<i64>> {
        self.get(i, name)
            .map(|v| convert::to_int(v, name))
            .transpose()
    }

    /// A bool argument with a default.
    pub fn bool_or(&self, i: usize, name: &str, default: bool) -> RhaiResult<bool> {
        match self.get(i, name) {
            None => Ok(default),
            Some(v) => v
                .as_bool()
                .map_err(|_| type_error(format!("{name} must be bool, not {}", py_type_name(v)))),
        }
    }

    /// The `dtype=` keyword.
    pub fn dtype(&self) -> RhaiResult<Option<DType>> {
        self.kw("dtype").map(convert::to_dtype).transpose()
    }

    /// A number argument.
    pub fn scalar(&self, i: usize, name: &str, func: &str) -> RhaiResult<Scalar> {
        convert::to_scalar(self.req(i, name, func)?, name)
    }

    /// A tensor argument.
    pub fn tensor(&self, i: usize, name: &str, func: &str) -> RhaiResult<Tensor> {
        convert::to_tensor(self.req(i, name, func)?, name)
    }

    /// Sizes from all positionals (`f(2, 3)` or `f([2, 3])`), or the `size=` keyword.
    pub fn sizes(&self, name: &str) -> RhaiResult<Vec<i64>> {
        if self.pos.is_empty() {
            return match self.kw(name) {
                Some(v) => convert::to_int_list(v, name),
                None => Ok(vec![]),
            };
        }
        convert::sizes_from(&self.pos, name)
    }
}

/// The tensor argument `name` at position `i` of `func`, in the words of PyTorch's argument
/// parser when it is missing or no tensor (`relu(): argument 'input' (position 1) must be
/// Tensor, not int`).
pub fn parser_tensor(a: &Args, i: usize, name: &str, func: &str) -> RhaiResult<Tensor> {
    let v = a.req(i, name, func)?;
    v.clone().try_cast::<Tensor>().ok_or_else(|| {
        type_error(format!(
            "{func}(): argument '{name}' (position {}) must be Tensor, not {}",
            i + 1,
            py_type_name(v)
        ))
    })
}
