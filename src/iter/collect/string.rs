//! `String` and `Box<str>`, from characters or string pieces; the [`Text`] machinery
//! that `OsString` shares.
//!
//! Each leaf appends its items to a text of its own; the pieces are chained in order
//! and the target absorbs them with one reservation.

use std::borrow::Cow;

use super::vec_list::{Piece, PieceList};
use super::{FromParallelIterator, ParallelExtend, collect_extended};
use crate::iter::{IntoParallelIterator, ParallelIterator};

/// An item that can be appended to a `String`.
trait PushOnto: Send {
    fn push_onto(self, text: &mut String);
}

impl PushOnto for char {
    fn push_onto(self, text: &mut String) {
        text.push(self);
    }
}

impl PushOnto for &char {
    fn push_onto(self, text: &mut String) {
        text.push(*self);
    }
}

impl PushOnto for &str {
    fn push_onto(self, text: &mut String) {
        text.push_str(self);
    }
}

impl PushOnto for String {
    fn push_onto(self, text: &mut String) {
        text.push_str(&self);
    }
}

impl PushOnto for Box<str> {
    fn push_onto(self, text: &mut String) {
        text.push_str(&self);
    }
}

impl PushOnto for Cow<'_, str> {
    fn push_onto(self, text: &mut String) {
        text.push_str(&self);
    }
}

/// A growable text that leaves fill piece by piece: `String` or `OsString`.
pub(super) trait Text: Default + Send {
    /// Length in bytes.
    fn text_len(&self) -> usize;
    /// True for a text that never allocated.
    fn is_unallocated(&self) -> bool;
    /// Reserves room for `additional` more bytes.
    fn reserve_text(&mut self, additional: usize);
    /// Appends a copy of `piece`.
    fn push_text(&mut self, piece: &Self);
}

impl Text for String {
    fn text_len(&self) -> usize {
        self.len()
    }
    fn is_unallocated(&self) -> bool {
        self.capacity() == 0
    }
    fn reserve_text(&mut self, additional: usize) {
        self.reserve(additional);
    }
    fn push_text(&mut self, piece: &Self) {
        self.push_str(piece);
    }
}

/// Appends the items of `iter` to `text`, in order: each leaf fills a text of its own,
/// and `text` absorbs them with one reservation.
pub(super) fn extend_text<S, T, I>(text: &mut S, iter: I)
where
    S: Text + Piece<T>,
    T: Send,
    I: IntoParallelIterator<Item = T>,
{
    let mut pieces = iter.into_par_iter().drive_unindexed(PieceList::<S>::new());
    if text.is_unallocated() && pieces.len() == 1 {
        // A single leaf: keep its text, copy nothing.
        *text = pieces.pop_front().unwrap_or_default();
        return;
    }
    text.reserve_text(pieces.iter().map(S::text_len).sum());
    for piece in pieces {
        text.push_text(&piece);
    }
}

impl<T: PushOnto> Piece<T> for String {
    fn push_item(&mut self, item: T) {
        item.push_onto(self);
    }

    fn is_empty(&self) -> bool {
        self.is_empty()
    }
}

/// Implements `ParallelExtend<$item> for String`, `FromParallelIterator<$item>` for
/// `String` and `Box<str>`, each with a doctest building from `$example`.
macro_rules! string_from {
    ($item:ty, $what:literal, $example:expr, $expected:literal $(, $life:lifetime)?) => {
        #[doc = concat!("Appends ", $what, " in order.")]
        ///
        /// ```
        /// use prorata::prelude::*;
        /// let mut text = String::from(">");
        #[doc = concat!("text.par_extend(", stringify!($example), ");")]
        #[doc = concat!("assert_eq!(text, \">", $expected, "\");")]
        /// ```
        impl$(<$life>)? ParallelExtend<$item> for String {
            fn par_extend<I>(&mut self, par_iter: I)
            where
                I: IntoParallelIterator<Item = $item>,
            {
                extend_text(self, par_iter);
            }
        }

        #[doc = concat!("Collects ", $what, " in order into a string.")]
        ///
        /// ```
        /// use prorata::prelude::*;
        #[doc = concat!("let text: String = ", stringify!($example), ".collect();")]
        #[doc = concat!("assert_eq!(text, \"", $expected, "\");")]
        /// ```
        impl$(<$life>)? FromParallelIterator<$item> for String {
            fn from_par_iter<I>(par_iter: I) -> Self
            where
                I: IntoParallelIterator<Item = $item>,
            {
                collect_extended(par_iter)
            }
        }

        #[doc = concat!("Collects ", $what, " in order into a boxed string.")]
        ///
        /// ```
        /// use prorata::prelude::*;
        #[doc = concat!("let text: Box<str> = ", stringify!($example), ".collect();")]
        #[doc = concat!("assert_eq!(&*text, \"", $expected, "\");")]
        /// ```
        impl$(<$life>)? FromParallelIterator<$item> for Box<str> {
            fn from_par_iter<I>(par_iter: I) -> Self
            where
                I: IntoParallelIterator<Item = $item>,
            {
                String::from_par_iter(par_iter).into_boxed_str()
            }
        }
    };
}

string_from!(
    char,
    "characters",
    ['a', 'b', 'c'][..].par_iter().map(|&c| c),
    "abc"
);
string_from!(
    &'a char,
    "characters",
    ['a', 'b', 'c'][..].par_iter(),
    "abc",
    'a
);
string_from!(
    &'a str,
    "string slices",
    ["ab", "", "c"][..].par_iter().map(|&s| s),
    "abc",
    'a
);
string_from!(
    String,
    "strings",
    (0..3usize).into_par_iter().map(|i| i.to_string()),
    "012"
);
string_from!(
    Box<str>,
    "boxed strings",
    (0..3usize)
        .into_par_iter()
        .map(|i| i.to_string().into_boxed_str()),
    "012"
);
string_from!(
    Cow<'a, str>,
    "copy-on-write strings",
    ["a", "b"][..].par_iter().map(|&s| std::borrow::Cow::Borrowed(s)),
    "ab",
    'a
);
