//! A set's storage, laid out as CPython lays out its sets — an open-addressing table of
//! slots probed in CPython's order (a short linear run, then a perturbed jump), grown at the
//! same fill and to the same sizes — so a set's items iterate, print and `pop` in the order
//! CPython's do (`{3, 1, 2}` prints `{1, 2, 3}`).
//!
//! Equality of items is the interpreter's (it can run ops); this type finds the candidates
//! of a hash and keeps the table. Invariants: the table's length is a power of two, at least
//! `MIN_SIZE`; `used` counts active slots and `fill` active and dummy ones; a probe run for a
//! hash ends at an empty slot, which exists because `fill` stays under three fifths of the
//! table.

use smallvec::SmallVec;

use super::Value;

/// The smallest table.
const MIN_SIZE: usize = 8;
/// How many neighbours a probe looks at before jumping.
const LINEAR_PROBES: u64 = 9;
/// How fast the jump's perturbation shifts in the hash's high bits.
const PERTURB_SHIFT: u32 = 5;

/// One slot of the table.
#[derive(Clone)]
enum Slot {
    Empty,
    /// Held an item that was removed (probe runs pass over it).
    Dummy,
    Active(i64, Value),
}

/// A set's table.
#[derive(Clone)]
pub struct SetTable {
    slots: Vec<Slot>,
    fill: usize,
    used: usize,
    /// Where `pop` starts looking.
    finger: usize,
    /// Changes with every change of the table (a probe made before is stale after one).
    version: u64,
}

impl Default for SetTable {
    fn default() -> SetTable {
        SetTable::new()
    }
}

/// What a probe run for one hash found.
pub struct Probe {
    /// The active slots of that hash: place and item (candidates for an equal item).
    pub candidates: SmallVec<[(usize, Value); 2]>,
    /// The last dummy passed, where a new item goes.
    last_dummy: Option<usize>,
    /// The empty slot that ended the run.
    empty: usize,
    /// The table's version when the run was made.
    pub version: u64,
}

/// The places a probe for one hash visits in a table of `mask + 1` slots, in order
/// (endless: the caller stops at an empty slot).
///
/// In 64 bits whatever the platform's word (CPython's `size_t` on the machines it is
/// compared with), so the page in WebAssembly probes as a 64-bit CPython does.
struct ProbeSequence {
    mask: u64,
    perturb: u64,
    /// The start of the current run of neighbours.
    start: u64,
    /// The next place of the run, counted from its start.
    step: u64,
    /// The last step of the run (0 when the run would pass the table's end).
    last: u64,
}

impl ProbeSequence {
    fn new(hash: i64, mask: usize) -> ProbeSequence {
        let bits = hash as u64;
        let mask = mask as u64;
        let start = bits & mask;
        ProbeSequence {
            mask,
            perturb: bits,
            start,
            step: 0,
            last: Self::run_end(start, mask),
        }
    }

    fn run_end(start: u64, mask: u64) -> u64 {
        if start + LINEAR_PROBES <= mask {
            LINEAR_PROBES
        } else {
            0
        }
    }

    fn next_place(&mut self) -> usize {
        if self.step > self.last {
            self.perturb >>= PERTURB_SHIFT;
            self.start = self
                .start
                .wrapping_mul(5)
                .wrapping_add(1)
                .wrapping_add(self.perturb)
                & self.mask;
            self.step = 0;
            self.last = Self::run_end(self.start, self.mask);
        }
        let at = self.start + self.step;
        self.step += 1;
        // Within the table, whose length is a `usize`.
        at as usize
    }
}

impl SetTable {
    /// An empty set.
    pub fn new() -> SetTable {
        SetTable {
            slots: vec![Slot::Empty; MIN_SIZE],
            fill: 0,
            used: 0,
            finger: 0,
            version: 0,
        }
    }

    /// How many items.
    pub fn len(&self) -> usize {
        self.used
    }

    /// Whether there are no items.
    pub fn is_empty(&self) -> bool {
        self.used == 0
    }

    /// The table's version (see `Probe::version`).
    pub fn version(&self) -> u64 {
        self.version
    }

    fn mask(&self) -> usize {
        self.slots.len() - 1
    }

    /// The probe run for `hash`.
    pub fn probe(&self, hash: i64) -> Probe {
        let mut candidates = SmallVec::new();
        let mut last_dummy = None;
        let mut places = ProbeSequence::new(hash, self.mask());
        loop {
            let at = places.next_place();
            match &self.slots[at] {
                Slot::Empty => {
                    return Probe {
                        candidates,
                        last_dummy,
                        empty: at,
                        version: self.version,
                    };
                }
                Slot::Dummy => {
                    last_dummy = Some(at);
                }
                Slot::Active(h, v) if *h == hash => candidates.push((at, v.clone())),
                Slot::Active(..) => {}
            }
        }
    }

    /// Adds `item` (of `hash`, equal to no item present: `probe` was made for it at this
    /// version) where CPython would put it, growing the table as CPython does.
    pub fn insert(&mut self, probe: &Probe, hash: i64, item: Value) {
        self.version += 1;
        self.used += 1;
        // The last dummy passed takes a new item (the fill stays), else the empty slot.
        if let Some(at) = probe.last_dummy {
            self.slots[at] = Slot::Active(hash, item);
            return;
        }
        self.slots[probe.empty] = Slot::Active(hash, item);
        self.fill += 1;
        if self.fill * 5 >= self.mask() * 3 {
            let wanted = if self.used > 50_000 {
                self.used * 2
            } else {
                self.used * 4
            };
            self.resize(wanted);
        }
    }

    /// Removes the item at `place` (one a probe gave), leaving a dummy.
    pub fn remove_at(&mut self, place: usize) -> Option<Value> {
        if !matches!(self.slots.get(place), Some(Slot::Active(..))) {
            return None;
        }
        self.version += 1;
        self.used -= 1;
        match std::mem::replace(&mut self.slots[place], Slot::Dummy) {
            Slot::Active(_, v) => Some(v),
            _ => None,
        }
    }

    /// Removes and returns an item, the next from where the last `pop` stopped.
    pub fn pop(&mut self) -> Option<Value> {
        if self.used == 0 {
            return None;
        }
        let mask = self.mask();
        let mut at = self.finger & mask;
        while !matches!(self.slots[at], Slot::Active(..)) {
            at = (at + 1) & mask;
        }
        self.finger = at + 1;
        self.remove_at(at)
    }

    /// Removes every item.
    pub fn clear(&mut self) {
        let version = self.version + 1;
        *self = SetTable::new();
        self.version = version;
    }

    /// The items in table order (iteration order).
    pub fn items(&self) -> Vec<Value> {
        self.entries().into_iter().map(|(_, v)| v).collect()
    }

    /// The items with their hashes, in table order.
    pub fn entries(&self) -> Vec<(i64, Value)> {
        self.slots
            .iter()
            .filter_map(|s| match s {
                Slot::Active(h, v) => Some((*h, v.clone())),
                _ => None,
            })
            .collect()
    }

    /// Whether the table has dummies.
    fn has_dummies(&self) -> bool {
        self.fill != self.used
    }

    /// Makes room before `incoming` items are merged in, as CPython does.
    pub fn reserve_for(&mut self, incoming: usize) {
        if (self.fill + incoming) * 5 >= self.mask() * 3 {
            self.resize((self.used + incoming) * 2);
        }
    }

    /// Copies `other`'s items into this set when it is empty, as CPython's merge does
    /// (`set(s)`, `s.copy()`, `s.union(...)` start so): `false` (nothing done) when this set
    /// is not empty.
    pub fn merge_into_empty(&mut self, other: &SetTable) -> bool {
        if self.fill != 0 {
            return other.used == 0;
        }
        if other.used == 0 {
            return true;
        }
        self.reserve_for(other.used);
        self.version += 1;
        if self.slots.len() == other.slots.len() && !other.has_dummies() {
            self.slots = other.slots.clone();
        } else {
            let mask = self.mask();
            for (h, v) in other.entries() {
                insert_clean(&mut self.slots, mask, h, v);
            }
        }
        self.fill = other.used;
        self.used = other.used;
        true
    }

    /// A table of the smallest size over `min_used`, the active items reinserted in order.
    fn resize(&mut self, min_used: usize) {
        let mut size = MIN_SIZE;
        while size <= min_used {
            size <<= 1;
        }
        let old = std::mem::replace(&mut self.slots, vec![Slot::Empty; size]);
        let mask = size - 1;
        for slot in old {
            if let Slot::Active(h, v) = slot {
                insert_clean(&mut self.slots, mask, h, v);
            }
        }
        self.fill = self.used;
        self.version += 1;
    }
}

/// Puts an item into the first empty slot of its probe run (a table with no equal item and
/// no dummies).
fn insert_clean(slots: &mut [Slot], mask: usize, hash: i64, item: Value) {
    let mut places = ProbeSequence::new(hash, mask);
    loop {
        let at = places.next_place();
        if matches!(slots[at], Slot::Empty) {
            slots[at] = Slot::Active(hash, item);
            return;
        }
    }
}
