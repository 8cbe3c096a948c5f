//! A crate may call itself `alloc` (this test binary does), so a type of its own
//! can be named `alloc::string::String` by `std::any::type_name`, as std's is.
//! The sorts must not take such a type for std's `String` (or for any type known
//! to hold no interior mutability): this one is one word, a `Cell` holding a box
//! that the comparator replaces, and a sort that copies it before the comparator
//! is done with it keeps a stale copy owning a freed box (a double free).

use std::cell::Cell;
use std::cmp::Ordering;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use prorata::prelude::*;

mod string {
    /// One word, named `alloc::string::String`: a key and a count of the
    /// comparisons it took part in (the high half), in a box the comparator
    /// replaces at every call.
    pub struct String(pub std::cell::Cell<Option<Box<u64>>>);

    impl String {
        /// The boxed value.
        pub fn value(&self) -> u64 {
            let b = self.0.take().expect("every element keeps its box");
            let v = *b;
            self.0.set(Some(b));
            v
        }

        /// Counts one comparison in a new box; returns the key.
        pub fn bump(&self) -> u64 {
            let old = self.0.take().expect("every element keeps its box");
            // The new box is made before the old one is freed, so that it
            // never reuses the old one's memory.
            let new = Box::new(*old + (1 << 32));
            let key = *new & 0xFFFF_FFFF;
            self.0.set(Some(new));
            drop(old);
            key
        }
    }
}

static CALLS: AtomicU64 = AtomicU64::new(0);

fn compare(a: &string::String, b: &string::String) -> Ordering {
    CALLS.fetch_add(1, Relaxed);
    a.bump().cmp(&b.bump())
}

#[test]
fn a_type_named_like_std_string_keeps_every_change() {
    assert_eq!(
        std::any::type_name::<string::String>(),
        "alloc::string::String"
    );
    assert_eq!(size_of::<string::String>(), 8);
    for len in [20, 33, 100, 1000, 5000, 50_000] {
        let mut v: Vec<string::String> = (0..len as u64)
            .map(|i| string::String(Cell::new(Some(Box::new((i * 7919) % 1013)))))
            .collect();
        CALLS.store(0, Relaxed);
        v.par_sort_by(compare);
        let values: Vec<u64> = v.iter().map(string::String::value).collect();
        let keys: Vec<u64> = values.iter().map(|v| v & 0xFFFF_FFFF).collect();
        assert!(keys.windows(2).all(|w| w[0] <= w[1]), "{len}: sorted");
        let counted: u64 = values.iter().map(|v| v >> 32).sum();
        assert_eq!(counted, 2 * CALLS.load(Relaxed), "{len}: every change kept");
    }
}
