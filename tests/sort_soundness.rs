//! The sorts stay sound whatever the comparator (or key function) does: every change
//! it makes to an element through a shared reference (a `Cell`) is in the slice when
//! the sort returns or unwinds, the slice is a permutation of its elements, and
//! nothing is dropped twice or read after it was freed. std documents this for its
//! sorts and Rayon's keep it.
//!
//! A sort that lets the comparator look at a copy of an element and then keeps
//! another copy loses the change. The elements here count the calls they took part
//! in (a lost change shows as a count too low), and the `Boxed` ones own a box the
//! comparator replaces at every call (a lost change is then a stale copy that still
//! owns a freed box: a double free, which Miri and AddressSanitizer report at once,
//! and which usually aborts a plain run).
//!
//! Every sort, stable and unstable, by order, comparator, key and cached key; element
//! sizes from 0 to 256 bytes; every input shape; short slices panicking at every
//! call, long ones at sampled calls; consistent orders and answers at random; 1, 2 and
//! 8 workers for the lengths the sorts split.

mod common;

use std::cell::Cell;
use std::cmp::Ordering;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicIsize, AtomicU64, AtomicUsize, Ordering::Relaxed};

use common::cases::pool;
use common::sort_inputs::shapes;
use common::work::one_at_a_time;
use prorata::prelude::*;

/// The comparator's state, one for the whole binary (the tests take turns): how many
/// calls are left before one panics, how many changes were made, and whether it
/// answers at random.
static BUDGET: AtomicIsize = AtomicIsize::new(isize::MAX);
static CALLS: AtomicUsize = AtomicUsize::new(0);
static TOUCHES: AtomicU64 = AtomicU64::new(0);
static RANDOM: AtomicBool = AtomicBool::new(false);
static COIN: AtomicU64 = AtomicU64::new(0x2545_F491_4F6C_DD1D);

/// A value from a shared xorshift sequence.
fn coin() -> u64 {
    let mut x = COIN.load(Relaxed);
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    COIN.store(x, Relaxed);
    x
}

/// An element that records, inside itself, every call that looked at it.
trait Probe: Send + Sized {
    /// Counts wrap at this (a power of two; `0` for no wrap).
    const MODULUS: u64;
    fn new(key: u32) -> Self;
    /// The key the sorts order by.
    fn key(&self) -> u32;
    /// One change through a shared reference.
    fn touch(&self);
    /// The changes this element has seen (modulo [`Probe::MODULUS`]).
    fn touches(&self) -> u64;
}

/// One change to `x`, counted.
fn touch<E: Probe>(x: &E) {
    x.touch();
    TOUCHES.fetch_add(1, Relaxed);
}

/// Keeps the budget's panics quiet (they are many); others print as usual.
fn quiet_budget_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if info.payload().downcast_ref::<&str>() != Some(&BUDGET_SPENT) {
                default(info);
            }
        }));
    });
}

/// The budget's panic message.
const BUDGET_SPENT: &str = "comparison budget spent";

/// Spends one call of the budget: panics once it is spent (after the call's
/// changes, the hardest case for a sort).
fn spend() {
    CALLS.fetch_add(1, Relaxed);
    if BUDGET.fetch_sub(1, Relaxed) <= 0 {
        std::panic::panic_any(BUDGET_SPENT);
    }
}

/// The comparator: changes both elements, may panic, then answers by key or at
/// random.
fn compare<E: Probe>(a: &E, b: &E) -> Ordering {
    touch(a);
    touch(b);
    spend();
    if RANDOM.load(Relaxed) {
        [Ordering::Less, Ordering::Equal, Ordering::Greater][(coin() % 3) as usize]
    } else {
        a.key().cmp(&b.key())
    }
}

/// The key function: changes its element, may panic.
fn key_of<E: Probe>(x: &E) -> u32 {
    touch(x);
    spend();
    if RANDOM.load(Relaxed) {
        coin() as u32 % 4
    } else {
        x.key()
    }
}

/// Elements of `8 + P` bytes: a key and a count in a `Cell`.
struct Counted<const P: usize> {
    key: u32,
    count: Cell<u32>,
    _pad: [u8; P],
}

impl<const P: usize> Probe for Counted<P> {
    const MODULUS: u64 = 1 << 32;
    fn new(key: u32) -> Self {
        Counted {
            key,
            count: Cell::new(0),
            _pad: [0; P],
        }
    }
    fn key(&self) -> u32 {
        self.key
    }
    fn touch(&self) {
        self.count.set(self.count.get().wrapping_add(1));
    }
    fn touches(&self) -> u64 {
        u64::from(self.count.get())
    }
}

/// Elements of `16 + P` bytes that own a box the comparator replaces at every call.
struct Boxed<const P: usize> {
    key: u32,
    boxed: Cell<Option<Box<u64>>>,
    _pad: [u8; P],
}

impl<const P: usize> Probe for Boxed<P> {
    const MODULUS: u64 = 0;
    fn new(key: u32) -> Self {
        Boxed {
            key,
            boxed: Cell::new(Some(Box::new(0))),
            _pad: [0; P],
        }
    }
    fn key(&self) -> u32 {
        self.key
    }
    fn touch(&self) {
        let old = self.boxed.take().expect("an element keeps its box");
        self.boxed.set(Some(Box::new(*old + 1)));
    }
    fn touches(&self) -> u64 {
        let b = self.boxed.take().expect("an element keeps its box");
        let n = *b;
        self.boxed.set(Some(b));
        n
    }
}

/// One-byte elements: the key in the high four bits, the count in the low four.
struct Byte(Cell<u8>);

impl Probe for Byte {
    const MODULUS: u64 = 16;
    fn new(key: u32) -> Self {
        Byte(Cell::new(((key % 16) as u8) << 4))
    }
    fn key(&self) -> u32 {
        u32::from(self.0.get() >> 4)
    }
    fn touch(&self) {
        let v = self.0.get();
        self.0.set((v & 0xF0) | (v.wrapping_add(1) & 0x0F));
    }
    fn touches(&self) -> u64 {
        u64::from(self.0.get() & 0x0F)
    }
}

/// Elements of two and four bytes: a key and a count of half the size each.
macro_rules! halves {
    ($name:ident, $half:ty, $bits:literal) => {
        struct $name {
            key: $half,
            count: Cell<$half>,
        }
        impl Probe for $name {
            const MODULUS: u64 = 1 << $bits;
            fn new(key: u32) -> Self {
                $name {
                    key: key as $half,
                    count: Cell::new(0),
                }
            }
            fn key(&self) -> u32 {
                u32::from(self.key)
            }
            fn touch(&self) {
                self.count.set(self.count.get().wrapping_add(1));
            }
            fn touches(&self) -> u64 {
                u64::from(self.count.get())
            }
        }
    };
}
halves!(Two, u8, 8);
halves!(Four, u16, 16);

/// Each probe is ordered by [`compare`] for `par_sort` and `par_sort_unstable`.
macro_rules! ordered_by_compare {
    ($([$($g:tt)*] $t:ty),* $(,)?) => {$(
        impl<$($g)*> PartialEq for $t {
            fn eq(&self, other: &Self) -> bool {
                compare(self, other) == Ordering::Equal
            }
        }
        impl<$($g)*> Eq for $t {}
        impl<$($g)*> PartialOrd for $t {
            fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
                Some(self.cmp(other))
            }
        }
        impl<$($g)*> Ord for $t {
            fn cmp(&self, other: &Self) -> Ordering {
                compare(self, other)
            }
        }
    )*};
}
ordered_by_compare!(
    [] Byte,
    [] Two,
    [] Four,
    [const P: usize] Counted<P>,
    [const P: usize] Boxed<P>,
);

/// The sorts under test.
const SORTS: [&str; 7] = [
    "par_sort",
    "par_sort_by",
    "par_sort_by_key",
    "par_sort_by_cached_key",
    "par_sort_unstable",
    "par_sort_unstable_by",
    "par_sort_unstable_by_key",
];

/// Sorts `v` with the sort named `sort`.
fn run_sort<E: Probe + Ord>(sort: &str, v: &mut [E]) {
    match sort {
        "par_sort" => v.par_sort(),
        "par_sort_by" => v.par_sort_by(compare),
        "par_sort_by_key" => v.par_sort_by_key(key_of),
        "par_sort_by_cached_key" => v.par_sort_by_cached_key(key_of),
        "par_sort_unstable" => v.par_sort_unstable(),
        "par_sort_unstable_by" => v.par_sort_unstable_by(compare),
        "par_sort_unstable_by_key" => v.par_sort_unstable_by_key(key_of),
        _ => unreachable!("no sort named {sort}"),
    }
}

/// One sort of `keys` as elements `E`, with `budget` calls before a panic; returns
/// the number of calls made, or a description of what went wrong.
fn sort_once<E: Probe + Ord>(
    sort: &str,
    keys: &[u32],
    budget: isize,
    random: bool,
) -> Result<usize, String> {
    quiet_budget_panics();
    let mut v: Vec<E> = keys.iter().map(|&k| E::new(k)).collect();
    let mut want: Vec<u32> = v.iter().map(E::key).collect();
    want.sort_unstable();
    BUDGET.store(budget, Relaxed);
    CALLS.store(0, Relaxed);
    TOUCHES.store(0, Relaxed);
    RANDOM.store(random, Relaxed);
    let outcome = catch_unwind(AssertUnwindSafe(|| run_sort(sort, &mut v)));
    BUDGET.store(isize::MAX, Relaxed);
    let calls = CALLS.load(Relaxed);
    let mut got: Vec<u32> = v.iter().map(E::key).collect();
    if outcome.is_ok() && !random && !got.windows(2).all(|w| w[0] <= w[1]) {
        return Err("not sorted".into());
    }
    got.sort_unstable();
    if got != want {
        return Err("not a permutation".into());
    }
    let mask = E::MODULUS.wrapping_sub(1);
    let seen = v.iter().fold(0u64, |s, x| s.wrapping_add(x.touches())) & mask;
    let made = TOUCHES.load(Relaxed) & mask;
    if seen != made {
        return Err(format!(
            "changes lost: {made} made, {seen} in the slice ({calls} calls, panic: {})",
            outcome.is_err()
        ));
    }
    Ok(calls)
}

/// The panic points tried for an input whose sort makes `calls` calls: every one
/// up to `every`, and about `sampled` spread over the rest.
fn panic_points(calls: usize, every: usize, sampled: usize) -> Vec<isize> {
    let mut points: Vec<isize> = (0..calls.min(every) as isize).collect();
    if calls > every {
        let step = ((calls - every) / sampled.max(1)).max(1);
        points.extend((every..calls).step_by(step).map(|c| c as isize));
        points.push(calls as isize - 1);
    }
    points
}

/// The lengths to try for each input shape.
type Lengths<'a> = &'a dyn Fn(&str) -> Vec<usize>;

/// Runs every sort over every shape at each of its `lengths`, panicking at every
/// call up to `every` and at about `sampled` more; collects the failures.
fn check<E: Probe + Ord>(lengths: Lengths, every: usize, sampled: usize) -> Vec<String> {
    let mut failures = Vec::new();
    let size = size_of::<E>();
    for (shape, make) in shapes() {
        for len in lengths(shape) {
            let keys = make(len, 7 + len as u64);
            for sort in SORTS {
                for random in [false, true] {
                    let case = format!(
                        "{sort}, {size} bytes, {shape}, {len} elements, {}",
                        if random { "random answers" } else { "ordered" }
                    );
                    let calls = match sort_once::<E>(sort, &keys, isize::MAX, random) {
                        Ok(calls) => calls,
                        Err(e) => {
                            failures.push(format!("{case}, no panic: {e}"));
                            continue;
                        }
                    };
                    for budget in panic_points(calls, every, sampled) {
                        if let Err(e) = sort_once::<E>(sort, &keys, budget, random) {
                            failures.push(format!("{case}, panic at call {budget}: {e}"));
                            break;
                        }
                    }
                }
            }
        }
    }
    failures
}

/// Elements of every size class the sorts treat apart (one word and less, up to
/// 32 bytes, up to 128, more), counted and owning boxes, at `lengths`.
fn check_every_size(lengths: Lengths, every: usize, sampled: usize) -> Vec<String> {
    let mut f = Vec::new();
    if cfg!(miri) {
        // The two kinds of small sort, networks (one word) and blocks (33 to 128
        // bytes, which the stable sorts of every size use too), one counted, one
        // owning boxes.
        f.extend(check::<Counted<0>>(lengths, every, sampled));
        f.extend(check::<Boxed<48>>(lengths, every, sampled));
        return f;
    }
    f.extend(check::<Byte>(lengths, every, sampled));
    f.extend(check::<Two>(lengths, every, sampled));
    f.extend(check::<Four>(lengths, every, sampled));
    f.extend(check::<Counted<0>>(lengths, every, sampled));
    f.extend(check::<Counted<8>>(lengths, every, sampled));
    f.extend(check::<Counted<24>>(lengths, every, sampled));
    f.extend(check::<Counted<40>>(lengths, every, sampled));
    f.extend(check::<Counted<120>>(lengths, every, sampled));
    f.extend(check::<Counted<128>>(lengths, every, sampled));
    f.extend(check::<Counted<248>>(lengths, every, sampled));
    f.extend(check::<Boxed<0>>(lengths, every, sampled));
    f.extend(check::<Boxed<48>>(lengths, every, sampled));
    f
}

/// Reports `failures`, counted by sort and element size with the first of each,
/// and fails if there are any.
fn assert_none(failures: Vec<String>) {
    let mut groups: Vec<(String, usize, String)> = Vec::new();
    for f in &failures {
        let group: String = f.splitn(3, ", ").take(2).collect::<Vec<_>>().join(", ");
        match groups.iter_mut().find(|g| g.0 == group) {
            Some(g) => g.1 += 1,
            None => groups.push((group, 1, f.clone())),
        }
    }
    let lines: Vec<String> = groups
        .iter()
        .map(|(_, n, first)| format!("{n} like: {first}"))
        .collect();
    assert!(
        failures.is_empty(),
        "{} unsound cases: {lines:#?}",
        failures.len()
    );
}

/// Short slices (the small sorts, networks and merges), a panic at every call
/// (sampled past the 64th): every length to 40 for random input and few
/// distinct values, the lengths where the small sorts change for the others.
#[test]
fn short_slices_keep_every_change_with_a_panic_at_any_call() {
    let _turn = one_at_a_time();
    let lengths = |shape: &str| -> Vec<usize> {
        if cfg!(miri) {
            if shape == "random" {
                vec![17, 33]
            } else {
                vec![]
            }
        } else if shape == "random" || shape == "few-distinct" {
            (0..=40).chain([64, 100]).collect()
        } else {
            vec![8, 17, 21, 33, 40]
        }
    };
    let (every, sampled) = if cfg!(miri) { (1, 2) } else { (64, 16) };
    // Slices this short sort on the calling thread; under Miri no pool is built,
    // whose idle workers would take most of its time.
    let failures = if cfg!(miri) {
        check_every_size(&lengths, every, sampled)
    } else {
        pool(2).install(|| check_every_size(&lengths, every, sampled))
    };
    assert_none(failures);
}

/// Lengths around the sequential and parallel cut-offs, on 1, 2 and 8 workers, a
/// panic at the first calls and at sampled ones.
#[test]
fn long_slices_keep_every_change_on_every_pool() {
    if cfg!(miri) {
        return; // too long for Miri; the short slices run there
    }
    let _turn = one_at_a_time();
    let lengths = |_: &str| vec![300, 4097, 9000];
    for threads in [1, 2, 8] {
        let failures = pool(threads).install(|| {
            let mut f = check::<Counted<0>>(&lengths, 2, 3);
            f.extend(check::<Counted<8>>(&lengths, 2, 3));
            f.extend(check::<Counted<40>>(&lengths, 2, 3));
            f.extend(check::<Counted<120>>(&lengths, 2, 3));
            f.extend(check::<Boxed<8>>(&lengths, 2, 3));
            f
        });
        assert_none(failures);
    }
}

/// Lengths the sorts split among workers many times, a panic at a few sampled
/// calls; and one input of 2^20 elements.
#[test]
fn large_slices_keep_every_change() {
    if cfg!(miri) {
        return;
    }
    let _turn = one_at_a_time();
    let mut failures = Vec::new();
    for threads in [2, 8] {
        pool(threads).install(|| {
            // The shapes the sorts split and merge most (sorted or reversed
            // inputs are finished in one pass).
            let lengths = |shape: &str| match shape {
                "random" | "few-distinct" | "sixteen-distinct" | "sorted-then-noise"
                | "nearly-descending" | "organ-pipe" => vec![70_000],
                _ => vec![],
            };
            failures.extend(check::<Counted<0>>(&lengths, 0, 2));
            failures.extend(check::<Boxed<8>>(&lengths, 0, 2));
            if threads == 2 {
                failures.extend(check::<Counted<56>>(&lengths, 0, 2));
            }
        });
    }
    let huge = |shape: &str| {
        if shape == "random" {
            vec![1 << 20]
        } else {
            vec![]
        }
    };
    pool(2).install(|| failures.extend(check::<Counted<0>>(&huge, 0, 1)));
    assert_none(failures);
}

/// Elements that own boxes, in sorts long enough to run in parallel, a panic at
/// sampled calls: the subset that `ci/valgrind.sh` runs, where a stale copy that
/// owns a freed box is reported at its first read.
#[test]
fn boxed_elements_in_parallel_sorts() {
    if cfg!(miri) {
        return;
    }
    let _turn = one_at_a_time();
    let lengths = |shape: &str| match shape {
        "random" | "few-distinct" | "sorted-then-noise" => vec![5000, 9000],
        _ => vec![],
    };
    let failures = pool(2).install(|| {
        let mut f = check::<Boxed<8>>(&lengths, 1, 2);
        f.extend(check::<Boxed<48>>(&lengths, 1, 2));
        f
    });
    assert_none(failures);
}

/// Large elements sort on a thread whose stack holds a few of them, as Rayon's
/// sorts do: no sort reserves buffers of elements on the stack for a path it
/// does not take (a build without optimisations reserves every buffer of a
/// function in its frame; `ci/sort_safety.sh` runs this test in one).
#[test]
fn large_elements_fit_a_small_stack() {
    if cfg!(miri) {
        return;
    }
    const WORDS: usize = 16 * 1024; // 128 KiB
    let sorted_by_first_word = |v: &[[u64; WORDS]]| v.windows(2).all(|w| w[0][0] <= w[1][0]);
    std::thread::Builder::new()
        .stack_size(4 << 20)
        .spawn(move || {
            for sort in 0..4 {
                let mut v = vec![[0u64; WORDS]; 40];
                for (i, x) in v.iter_mut().enumerate() {
                    x[0] = (i as u64 * 7) % 40;
                }
                match sort {
                    0 => v.par_sort_unstable(),
                    1 => v.par_sort(),
                    2 => v.par_sort_unstable_by_key(|x| x[0]),
                    _ => v.par_sort_by(|a, b| a[0].cmp(&b[0])),
                }
                assert!(sorted_by_first_word(&v), "sort {sort}");
            }
        })
        .unwrap()
        .join()
        .unwrap();
}

/// Zero-sized elements: a comparator that panics leaves the slice as it was.
#[test]
fn zero_sized_elements_survive_a_panicking_comparator() {
    #[derive(PartialEq, Eq, PartialOrd, Ord, Debug)]
    struct Nothing;
    let _turn = one_at_a_time();
    for len in [0, 1, 5, 5000] {
        for sort in 0..4 {
            let mut v: Vec<Nothing> = (0..len).map(|_| Nothing).collect();
            let r = catch_unwind(AssertUnwindSafe(|| {
                let boom = |_: &Nothing, _: &Nothing| -> Ordering { panic!("boom") };
                match sort {
                    0 => v.par_sort_by(boom),
                    1 => v.par_sort_unstable_by(boom),
                    2 => v.par_sort_by_key(|_| -> u8 { panic!("boom") }),
                    _ => v.par_sort_by_cached_key(|_| -> u8 { panic!("boom") }),
                }
            }));
            let _ = r;
            assert_eq!(v.len(), len);
        }
    }
}
