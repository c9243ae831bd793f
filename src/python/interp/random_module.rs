//! `_random`: the generator under the `random` module (written in Python,
//! `python::stdlib::random`): CPython's Mersenne Twister, seeded as CPython seeds it, so the
//! same seed gives the same numbers.

use std::cell::RefCell;
use std::rc::Rc;

use super::{Flow, Interpreter};
use crate::core::random::mt19937::Mt19937;
use crate::python::value::Value;

/// A generator's state, shared by every name bound to it.
pub type SharedTwister = Rc<RefCell<Mt19937>>;

impl Interpreter {
    /// Calls `_random.name`.
    pub(super) fn random_function(&mut self, name: &str, args: &[Value]) -> Flow<Value> {
        match (name, args) {
            ("seeded", [seed]) => {
                let key = match seed {
                    Value::None => {
                        // No seed: the clock's nanoseconds, as a fresh process would differ.
                        crate::platform::varies::note();
                        let t = crate::platform::clock::since_epoch().as_nanos();
                        words(t)
                    }
                    Value::Bool(b) => words(*b as u128),
                    Value::Int(i) => words(i.unsigned_abs() as u128),
                    Value::BigInt(i) => i.magnitude().to_u32_digits(),
                    Value::Float(f) => {
                        let h = crate::python::hash::float(*f).unwrap_or(0);
                        words(h.unsigned_abs() as u128)
                    }
                    other => {
                        return self.raise(
                            "NotImplementedError",
                            format!(
                                "tensh's random seeds from an int, a float or None, not a '{}'",
                                other.type_name()
                            ),
                        );
                    }
                };
                let twister: SharedTwister = Rc::new(RefCell::new(Mt19937::from_key(&key)));
                Ok(Value::Host(rhai::Dynamic::from(twister)))
            }
            ("random", [state]) => {
                let mt = self.twister(state)?;
                let mut mt = mt.borrow_mut();
                let a = (mt.next_u32() >> 5) as f64;
                let b = (mt.next_u32() >> 6) as f64;
                Ok(Value::Float(
                    (a * 67_108_864.0 + b) * (1.0 / 9_007_199_254_740_992.0),
                ))
            }
            ("getrandbits", [state, Value::Int(k)]) => {
                let k = *k;
                if k < 0 {
                    return self.raise("ValueError", "number of bits must be non-negative");
                }
                if let Err(e) = crate::python::long::check_bits(k as u64) {
                    return Err(self.throw(e));
                }
                let mt = self.twister(state)?;
                let mut mt = mt.borrow_mut();
                // 32-bit words, least significant first; the last keeps its top bits.
                let mut digits = Vec::with_capacity((k as usize).div_ceil(32));
                let mut left = k as u64;
                while left > 0 {
                    let take = left.min(32) as u32;
                    digits.push(mt.next_u32() >> (32 - take));
                    left -= take as u64;
                }
                Ok(Value::long(num_bigint::BigUint::new(digits).into()))
            }
            _ => self.raise("TypeError", format!("_random.{name}(): wrong arguments")),
        }
    }

    fn twister(&mut self, state: &Value) -> Flow<SharedTwister> {
        if let Value::Host(d) = state
            && let Some(t) = d.read_lock::<SharedTwister>()
        {
            return Ok(t.clone());
        }
        self.raise("TypeError", "not a random generator's state")
    }
}

/// `n`'s 32-bit words, least significant first (one word for 0).
fn words(mut n: u128) -> Vec<u32> {
    let mut key = vec![n as u32];
    n >>= 32;
    while n > 0 {
        key.push(n as u32);
        n >>= 32;
    }
    key
}
