//! The consumer half of the adaptor-by-consumer matrix (tests/iter_matrix_adaptors.rs):
//! consumers run on one parallel iterator and compared with what std's sequential
//! methods give on the expected items.
//!
//! Each consumer instantiated on an adaptor costs about a second of release compile
//! time, so the battery holds one consumer per way of driving an adaptor, not one per
//! method: `collect` (in place when the length is known, piecewise otherwise: the path
//! of `sum`, `reduce`, `for_each`, ... too), `find_first` (a search that stops pieces
//! early and keeps the order), and for indexed iterators `collect_into_vec` (driven by
//! index). The checks take the collected items, not the iterator, so they are
//! compiled once.

use prorata::prelude::*;

use super::cases::noise;

/// What is known of an iterator's items.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    /// The items and their order (most adaptors).
    Exact,
    /// The items, in no particular order (`take_any(all)`).
    Multiset,
    /// Only how many there are (`take_any(n)`, `skip_any(n)`).
    Count,
    /// Only their sum (`fold`: the pieces depend on the splitting).
    Sum,
}

/// The items the searches look for.
pub fn is_rare(x: &i64) -> bool {
    x.rem_euclid(7) == 3
}

/// Checks collected items against `want` as far as `mode` allows.
pub fn check_items(what: &str, mut got: Vec<i64>, want: &[i64], mode: Mode) {
    match mode {
        Mode::Sum => assert_eq!(
            got.iter().sum::<i64>(),
            want.iter().sum::<i64>(),
            "{what}: collect"
        ),
        Mode::Count => assert_eq!(got.len(), want.len(), "{what}: collect"),
        Mode::Multiset => {
            let mut want = want.to_vec();
            want.sort_unstable();
            got.sort_unstable();
            assert_eq!(got, want, "{what}: collect");
        }
        Mode::Exact => assert_eq!(got, want, "{what}: collect"),
    }
}

/// Checks the result of `find_first(is_rare)`.
fn check_find_first(what: &str, got: Option<i64>, want: &[i64]) {
    let first = want.iter().copied().find(is_rare);
    assert_eq!(got, first, "{what}: find_first");
}

/// `collect`, checked as far as `mode` allows, and for `Mode::Exact` `find_first`.
pub fn battery<I: ParallelIterator<Item = i64>>(
    what: &str,
    make: &dyn Fn() -> I,
    want: &[i64],
    mode: Mode,
) {
    check_items(what, make().collect(), want, mode);
    if mode == Mode::Exact {
        check_find_first(what, make().find_first(is_rare), want);
    }
}

/// [`battery`], then the length and `collect_into_vec`.
pub fn indexed_battery<I: IndexedParallelIterator<Item = i64>>(
    what: &str,
    make: &dyn Fn() -> I,
    want: &[i64],
) {
    battery(what, make, want, Mode::Exact);
    let n = want.len();
    assert_eq!(
        (make().len(), make().opt_len()),
        (n, Some(n)),
        "{what}: len"
    );
    let mut v = vec![9; 3];
    make().collect_into_vec(&mut v);
    check_items(&format!("{what}, collect_into_vec"), v, want, Mode::Exact);
}

/// Values with repeats, negatives, and a few rare ones (see the battery).
pub fn input(len: usize) -> Vec<i64> {
    (0..len).map(|i| (noise(i) % 1000) as i64 - 300).collect()
}

/// std's `intersperse` (not stable yet).
pub fn interspersed(items: impl Iterator<Item = i64>, separator: i64) -> std::vec::IntoIter<i64> {
    let mut out = Vec::new();
    for (i, x) in items.enumerate() {
        if i > 0 {
            out.push(separator);
        }
        out.push(x);
    }
    out.into_iter()
}

/// `$name: |base, len| parallel => |std_iter| sequential;` One test per adaptor:
/// `$kind` says which battery runs on which base: `keeps_index` (indexed over an indexed
/// base), `unindexed` (with what `$mode` says is known of the items), `of_indexed` (an
/// unindexed adaptor of an indexed iterator), `indexed_only`.
#[allow(unused_macros)] // only the matrix tests use it
macro_rules! matrix_ {
    ($kind:ident $mode:ident: $($name:ident: |$b:ident, $n:ident| $par:expr => |$s:ident| $seq:expr;)*) => {$(
        #[test]
        fn $name() {
            $crate::common::cases::for_all(|len| {
                let v = $crate::common::battery::input(len);
                let $n = len;
                let want: Vec<i64> = {
                    let $s = v.iter().copied();
                    $seq.collect()
                };
                let what = stringify!($name);
                let indexed = || {
                    let $b = v.par_iter().copied();
                    $par
                };
                $crate::common::battery::matrix!(@$kind $mode, what, indexed, want);
                $crate::common::battery::matrix!(@second $kind $mode, what, want, || {
                    let $b = $crate::common::plumbing::Unindexed(v.par_iter().copied());
                    $par
                });
            });
        }
    )*};
    (@keeps_index $mode:ident, $what:ident, $make:ident, $want:ident) => {
        $crate::common::battery::indexed_battery($what, &$make, &$want);
    };
    (@indexed_only $mode:ident, $what:ident, $make:ident, $want:ident) => {
        $crate::common::battery::indexed_battery($what, &$make, &$want);
    };
    (@$kind:ident $mode:ident, $what:ident, $make:ident, $want:ident) => {
        $crate::common::battery::battery($what, &$make, &$want, $crate::common::battery::Mode::$mode);
    };
    (@second keeps_index $mode:ident, $what:ident, $want:ident, $make:expr) => {
        $crate::common::battery::check_items(
            &format!("{}, unindexed", $what),
            $make().collect(),
            &$want,
            $crate::common::battery::Mode::$mode,
        );
    };
    (@second unindexed $mode:ident, $what:ident, $want:ident, $make:expr) => {
        $crate::common::battery::check_items(
            &format!("{}, unindexed", $what),
            $make().collect(),
            &$want,
            $crate::common::battery::Mode::$mode,
        );
    };
    (@second $kind:ident $mode:ident, $what:ident, $want:ident, $make:expr) => {};
}
#[allow(unused_imports)]
pub(crate) use matrix_ as matrix;
