//! The selection and sorting algorithms PyTorch's CPU order statistics run, restated so
//! that ties come out in the same places: which of several equal elements `topk`,
//! `kthvalue`, `median(dim)` and `mode` report depends on how the algorithm moves
//! elements, not only on the values.
//!
//! - `nth_element`, `sort` and `partial_sort` behave as the C++ standard library's
//!   (GNU libstdc++, which PyTorch's Linux builds use): introselect and introsort with a
//!   median-of-three pivot moved to the front and an unguarded partition, insertion sort
//!   for ranges of 16 or fewer (sort) or 3 or fewer (select), heap select and heap sort
//!   for `partial_sort` and when the recursion gets too deep.
//! - `quick_select` is the select of Numerical Recipes that PyTorch's `kthvalue` uses:
//!   a median of three among the ends and the middle, then a partition around it.
//!
//! All work on a slice of element positions; `less(a, b)` compares the elements at
//! positions `a` and `b` (a strict weak order, or what the caller's comparator gives).

/// `floor(log2(n))` for `n ≥ 1`.
fn lg(n: usize) -> usize {
    (usize::BITS - 1 - n.leading_zeros()) as usize
}

type Less<'a> = &'a dyn Fn(usize, usize) -> bool;

/// Moves the median of `v[a]`, `v[b]`, `v[c]` to `v[result]`.
fn move_median_to_first(v: &mut [usize], result: usize, a: usize, b: usize, c: usize, less: Less) {
    let l = |x: usize, y: usize| less(v[x], v[y]);
    let pick = if l(a, b) {
        if l(b, c) {
            b
        } else if l(a, c) {
            c
        } else {
            a
        }
    } else if l(a, c) {
        a
    } else if l(b, c) {
        c
    } else {
        b
    };
    v.swap(result, pick);
}

/// Partitions `v[first..last]` around the pivot at `v[pivot]` (outside the range) without
/// bounds checks on the scans (the pivot's value stops them); returns the cut.
fn unguarded_partition(
    v: &mut [usize],
    mut first: usize,
    mut last: usize,
    pivot: usize,
    less: Less,
) -> usize {
    loop {
        while less(v[first], v[pivot]) {
            first += 1;
        }
        last -= 1;
        while less(v[pivot], v[last]) {
            last -= 1;
        }
        if first >= last {
            return first;
        }
        v.swap(first, last);
        first += 1;
    }
}

fn unguarded_partition_pivot(v: &mut [usize], first: usize, last: usize, less: Less) -> usize {
    let mid = first + (last - first) / 2;
    move_median_to_first(v, first, first + 1, mid, last - 1, less);
    unguarded_partition(v, first + 1, last, first, less)
}

/// Inserts `v[i]` into the sorted run before it, shifting larger elements right; the run
/// is known to hold an element not larger, so no bound is checked.
fn unguarded_linear_insert(v: &mut [usize], mut i: usize, less: Less) {
    let val = v[i];
    while less(val, v[i - 1]) {
        v[i] = v[i - 1];
        i -= 1;
    }
    v[i] = val;
}

fn insertion_sort(v: &mut [usize], first: usize, last: usize, less: Less) {
    if first == last {
        return;
    }
    for i in first + 1..last {
        if less(v[i], v[first]) {
            let val = v[i];
            v.copy_within(first..i, first + 1);
            v[first] = val;
        } else {
            unguarded_linear_insert(v, i, less);
        }
    }
}

fn push_heap(v: &mut [usize], base: usize, mut hole: usize, top: usize, value: usize, less: Less) {
    let mut parent = hole.wrapping_sub(1) / 2;
    while hole > top && less(v[base + parent], value) {
        v[base + hole] = v[base + parent];
        hole = parent;
        parent = hole.wrapping_sub(1) / 2;
    }
    v[base + hole] = value;
}

fn adjust_heap(
    v: &mut [usize],
    base: usize,
    mut hole: usize,
    len: usize,
    value: usize,
    less: Less,
) {
    let top = hole;
    let mut child = hole;
    while child < len.saturating_sub(1) / 2 {
        child = 2 * (child + 1);
        if less(v[base + child], v[base + child - 1]) {
            child -= 1;
        }
        v[base + hole] = v[base + child];
        hole = child;
    }
    if len & 1 == 0 && len >= 2 && child == (len - 2) / 2 {
        child = 2 * (child + 1);
        v[base + hole] = v[base + child - 1];
        hole = child - 1;
    }
    push_heap(v, base, hole, top, value, less);
}

fn make_heap(v: &mut [usize], first: usize, last: usize, less: Less) {
    let len = last - first;
    if len < 2 {
        return;
    }
    let mut parent = (len - 2) / 2;
    loop {
        let value = v[first + parent];
        adjust_heap(v, first, parent, len, value, less);
        if parent == 0 {
            return;
        }
        parent -= 1;
    }
}

/// Moves the heap's top to `result` and the element there into the heap `[first, last)`.
fn pop_heap(v: &mut [usize], first: usize, last: usize, result: usize, less: Less) {
    let value = v[result];
    v[result] = v[first];
    adjust_heap(v, first, 0, last - first, value, less);
}

fn heap_select(v: &mut [usize], first: usize, middle: usize, last: usize, less: Less) {
    make_heap(v, first, middle, less);
    for i in middle..last {
        if less(v[i], v[first]) {
            pop_heap(v, first, middle, i, less);
        }
    }
}

fn sort_heap(v: &mut [usize], first: usize, mut last: usize, less: Less) {
    while last - first > 1 {
        last -= 1;
        pop_heap(v, first, last, last, less);
    }
}

/// `std::partial_sort(first, middle, last)`: the smallest `middle` elements, sorted, first.
pub fn partial_sort(v: &mut [usize], middle: usize, less: Less) {
    heap_select(v, 0, middle, v.len(), less);
    sort_heap(v, 0, middle, less);
}

/// `std::nth_element`: the element that sorts at `nth` is put there, smaller ones before.
pub fn nth_element(v: &mut [usize], nth: usize, less: Less) {
    let (mut first, mut last) = (0, v.len());
    if first == last || nth >= last {
        return;
    }
    let mut depth = lg(last - first) * 2;
    while last - first > 3 {
        if depth == 0 {
            heap_select(v, first, nth + 1, last, less);
            v.swap(first, nth);
            return;
        }
        depth -= 1;
        let cut = unguarded_partition_pivot(v, first, last, less);
        if cut <= nth {
            first = cut;
        } else {
            last = cut;
        }
    }
    insertion_sort(v, first, last, less);
}

const SORT_THRESHOLD: usize = 16;

fn introsort_loop(v: &mut [usize], first: usize, mut last: usize, mut depth: usize, less: Less) {
    while last - first > SORT_THRESHOLD {
        if depth == 0 {
            heap_select(v, first, last, last, less);
            sort_heap(v, first, last, less);
            return;
        }
        depth -= 1;
        let cut = unguarded_partition_pivot(v, first, last, less);
        introsort_loop(v, cut, last, depth, less);
        last = cut;
    }
}

/// `std::sort` (not stable).
pub fn sort(v: &mut [usize], less: Less) {
    let n = v.len();
    if n == 0 {
        return;
    }
    introsort_loop(v, 0, n, lg(n) * 2, less);
    if n > SORT_THRESHOLD {
        insertion_sort(v, 0, SORT_THRESHOLD, less);
        for i in SORT_THRESHOLD..n {
            unguarded_linear_insert(v, i, less);
        }
    } else {
        insertion_sort(v, 0, n, less);
    }
}

/// The select of `kthvalue`: puts the element ranking `k` (0-based) at `v[k]`; `gt(a, b)`
/// says the element at position `a` ranks above the one at `b`.
pub fn quick_select(v: &mut [usize], k: usize, gt: Less) {
    if v.is_empty() {
        return;
    }
    let (mut l, mut r) = (0usize, v.len() - 1);
    loop {
        if r <= l {
            return;
        }
        if r == l + 1 {
            if gt(v[l], v[r]) {
                v.swap(l, r);
            }
            return;
        }
        let p = l + (r - l) / 2;
        v.swap(p, l + 1);
        if gt(v[l + 1], v[r]) {
            v.swap(l + 1, r);
        }
        if gt(v[l], v[r]) {
            v.swap(l, r);
        }
        if gt(v[l + 1], v[l]) {
            v.swap(l + 1, l);
        }
        let (mut i, mut j) = (l + 1, r);
        let pivot = v[l];
        loop {
            i += 1;
            while gt(pivot, v[i]) {
                i += 1;
            }
            j -= 1;
            while gt(v[j], pivot) {
                j -= 1;
            }
            if j < i {
                break;
            }
            v.swap(i, j);
        }
        v.swap(l, j);
        if j <= k {
            l = i;
        }
        if j >= k {
            r = j - 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys_less(keys: &[i32]) -> impl Fn(usize, usize) -> bool + '_ {
        move |a, b| keys[a] < keys[b]
    }

    #[test]
    fn every_algorithm_orders_values() {
        let mut seed = 12345u64;
        for n in 0..200usize {
            let keys: Vec<i32> = (0..n)
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((seed >> 33) % 7) as i32
                })
                .collect();
            let less = keys_less(&keys);
            let mut sorted: Vec<i32> = keys.clone();
            sorted.sort();
            let mut v: Vec<usize> = (0..n).collect();
            sort(&mut v, &less);
            assert_eq!(v.iter().map(|&i| keys[i]).collect::<Vec<_>>(), sorted);
            for k in [0, n / 3, n.saturating_sub(1)] {
                if k >= n {
                    continue;
                }
                let mut v: Vec<usize> = (0..n).collect();
                nth_element(&mut v, k, &less);
                assert_eq!(keys[v[k]], sorted[k]);
                let mut v: Vec<usize> = (0..n).collect();
                quick_select(&mut v, k, &|a, b| keys[a] > keys[b]);
                assert_eq!(keys[v[k]], sorted[k]);
                let mut v: Vec<usize> = (0..n).collect();
                partial_sort(&mut v, k + 1, &less);
                assert_eq!(
                    v[..=k].iter().map(|&i| keys[i]).collect::<Vec<_>>(),
                    sorted[..=k]
                );
            }
        }
    }
}
