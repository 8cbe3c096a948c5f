//! `OsString`, from `OsStr` slices, `OsString`s or `Cow<OsStr>`s, as in Rayon.

use std::borrow::Cow;
use std::ffi::{OsStr, OsString};

use super::string::{Text, extend_text};
use super::vec_list::Piece;
use super::{FromParallelIterator, ParallelExtend, collect_extended};
use crate::iter::IntoParallelIterator;

impl Text for OsString {
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
        self.push(piece);
    }
}

/// Implements `Piece`, `ParallelExtend` and `FromParallelIterator` of `$item` for
/// `OsString`, with doctests that build from `$example`.
macro_rules! os_string_from {
    ($item:ty, $what:literal, $example:expr $(, $life:lifetime)?) => {
        impl$(<$life>)? Piece<$item> for OsString {
            fn push_item(&mut self, item: $item) {
                self.push(item);
            }

            fn is_empty(&self) -> bool {
                OsStr::is_empty(self)
            }
        }

        #[doc = concat!("Appends ", $what, " in order.")]
        ///
        /// ```
        /// use prorata::prelude::*;
        /// use std::ffi::{OsStr, OsString};
        /// let mut text = OsString::from(">");
        #[doc = concat!("text.par_extend(", stringify!($example), ");")]
        /// assert_eq!(text, ">abc");
        /// ```
        impl$(<$life>)? ParallelExtend<$item> for OsString {
            fn par_extend<I>(&mut self, par_iter: I)
            where
                I: IntoParallelIterator<Item = $item>,
            {
                extend_text(self, par_iter);
            }
        }

        #[doc = concat!("Collects ", $what, " in order into an `OsString`.")]
        ///
        /// ```
        /// use prorata::prelude::*;
        /// use std::ffi::{OsStr, OsString};
        #[doc = concat!("let text: OsString = ", stringify!($example), ".collect();")]
        /// assert_eq!(text, "abc");
        /// ```
        impl$(<$life>)? FromParallelIterator<$item> for OsString {
            fn from_par_iter<I>(par_iter: I) -> Self
            where
                I: IntoParallelIterator<Item = $item>,
            {
                collect_extended(par_iter)
            }
        }
    };
}

os_string_from!(
    &'a OsStr,
    "`OsStr` slices",
    ["ab", "", "c"][..].par_iter().map(OsStr::new),
    'a
);
os_string_from!(
    OsString,
    "`OsString`s",
    ["ab", "", "c"][..].par_iter().map(OsString::from)
);
os_string_from!(
    Cow<'a, OsStr>,
    "copy-on-write `OsStr`s",
    ["ab", "", "c"][..]
        .par_iter()
        .map(|s| std::borrow::Cow::Borrowed(OsStr::new(s))),
    'a
);
