//! Unit tests of the in-place machinery, driven by hand and sequentially, so that they
//! run under Miri: every item is an owned `String`, so a leak, a double drop or a read
//! of an unwritten slot is reported.

use std::panic::{AssertUnwindSafe, catch_unwind};

use super::in_place::{SlotConsumer, SlotWriter};
use super::into_vec::append_in_place;
use crate::iter::plumbing::{Consumer, Folder, Reducer};

fn fill<'c>(
    consumer: SlotConsumer<'c, String>,
    items: std::ops::Range<usize>,
) -> SlotWriter<'c, String> {
    consumer
        .into_folder()
        .consume_iter(items.map(|i| i.to_string()))
        .complete()
}

fn strings(items: std::ops::Range<usize>) -> Vec<String> {
    items.map(|i| i.to_string()).collect()
}

#[test]
fn pieces_written_in_order_join_into_the_vector() {
    let mut vec = vec![String::from("old")];
    append_in_place(&mut vec, 7, |consumer| {
        let (left, rest, outer) = consumer.split_at(2);
        let (middle, right, inner) = rest.split_at(4);
        let (right, middle) = (fill(right, 6..7), fill(middle, 2..6));
        outer.reduce(fill(left, 0..2), inner.reduce(middle, right))
    });
    let mut want = vec![String::from("old")];
    want.extend(strings(0..7));
    assert_eq!(vec, want);
}

#[test]
fn a_short_piece_leaves_a_gap_that_is_reported_and_cleaned_up() {
    let mut vec = vec![String::from("old")];
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        append_in_place(&mut vec, 6, |consumer| {
            let (left, right, reducer) = consumer.split_at(3);
            reducer.reduce(fill(left, 0..2), fill(right, 3..6))
        })
    }));
    let message = *outcome.unwrap_err().downcast::<String>().unwrap();
    assert_eq!(message, "expected 6 total writes, but got 2");
    assert_eq!(vec, [String::from("old")]);
}

#[test]
fn pieces_joined_in_the_wrong_order_are_refused() {
    let outcome = catch_unwind(|| {
        let mut vec = Vec::new();
        append_in_place(&mut vec, 4, |consumer| {
            let (left, right, reducer) = consumer.split_at(2);
            reducer.reduce(fill(right, 2..4), fill(left, 0..2))
        })
    });
    assert!(outcome.is_err());
}

#[test]
fn too_many_items_panic_and_drop_what_was_written() {
    let outcome = catch_unwind(|| {
        let mut vec = Vec::new();
        append_in_place(&mut vec, 3, |consumer| fill(consumer, 0..5))
    });
    let message = *outcome.unwrap_err().downcast::<&str>().unwrap();
    assert!(message.contains("more items than"));
}

#[test]
fn a_panic_while_filling_drops_the_written_items_once() {
    let outcome = catch_unwind(|| {
        let mut vec = Vec::new();
        append_in_place(&mut vec, 5, |consumer| {
            let (left, right, reducer) = consumer.split_at(2);
            let left = fill(left, 0..2);
            let right = right.into_folder().consume_iter((2..5).map(|i| {
                assert!(i != 3, "boom");
                i.to_string()
            }));
            reducer.reduce(left, right.complete())
        })
    });
    assert!(outcome.is_err());
}

#[test]
fn zero_sized_items_are_counted() {
    let mut vec = Vec::new();
    append_in_place(&mut vec, 5, |consumer| {
        let (left, right, reducer) = consumer.split_at(2);
        let left = left.into_folder().consume_iter([(), ()]).complete();
        let right = right.into_folder().consume_iter([(), (), ()]).complete();
        reducer.reduce(left, right)
    });
    assert_eq!(vec.len(), 5);
    let outcome = catch_unwind(|| {
        let mut vec = Vec::new();
        append_in_place(&mut vec, 5, |consumer| {
            let (left, right, reducer) = consumer.split_at(2);
            let left = left.into_folder().consume(()).complete();
            let right = right.into_folder().consume_iter([(), (), ()]).complete();
            reducer.reduce(left, right)
        })
    });
    assert!(outcome.is_err());
}
