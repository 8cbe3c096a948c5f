//! `par_chars`, `par_char_indices`, `par_bytes`, `par_encode_utf16`: cut at char
//! boundaries, each piece iterated with its sequential std method.

use super::pieces::{Leaf, Pieces, run_end};
use crate::iter::plumbing::*;
use crate::iter::*;

/// Parallel iterator over the chars of a string, made by
/// [`par_chars`](super::ParallelString::par_chars).
///
/// ```
/// use prorata::prelude::*;
/// let it: prorata::str::Chars<'_> = "héllo".par_chars();
/// it.for_each(|c| assert!(c.is_alphabetic()));
/// ```
#[derive(Debug, Clone)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct Chars<'ch> {
    pub(super) chars: &'ch str,
}

/// Parallel iterator over the chars of a string and their byte offsets, made by
/// [`par_char_indices`](super::ParallelString::par_char_indices).
///
/// ```
/// use prorata::prelude::*;
/// let it: prorata::str::CharIndices<'_> = "hé".par_char_indices();
/// it.for_each(|(i, c)| assert!((i, c) == (0, 'h') || (i, c) == (1, 'é')));
/// ```
#[derive(Debug, Clone)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct CharIndices<'ch> {
    pub(super) chars: &'ch str,
}

/// Parallel iterator over the bytes of a string, made by
/// [`par_bytes`](super::ParallelString::par_bytes).
///
/// ```
/// use prorata::prelude::*;
/// let it: prorata::str::Bytes<'_> = "abc".par_bytes();
/// it.for_each(|b| assert!(b.is_ascii_lowercase()));
/// ```
#[derive(Debug, Clone)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct Bytes<'ch> {
    pub(super) chars: &'ch str,
}

/// Parallel iterator over a string encoded as UTF-16 code units, made by
/// [`par_encode_utf16`](super::ParallelString::par_encode_utf16).
///
/// ```
/// use prorata::prelude::*;
/// let it: prorata::str::EncodeUtf16<'_> = "abc".par_encode_utf16();
/// it.for_each(|u| assert!(u < 128));
/// ```
#[derive(Debug, Clone)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct EncodeUtf16<'ch> {
    pub(super) chars: &'ch str,
}

/// Implements `ParallelIterator` for a per-char iterator with the leaf `$leaf`.
macro_rules! per_char_iterator {
    ($name:ident, $leaf:ident, $item:ty, |$piece:ident, $offset:ident| $iter:expr) => {
        struct $leaf;

        impl<'ch> Leaf<'ch> for $leaf {
            type Item = $item;
            fn fold<F: Folder<$item>>(&self, whole: &'ch str, start: usize, mut folder: F) -> F {
                // In runs of a few thousand bytes, each handed on whole: the pool's safe
                // points come between runs, not between items.
                let mut rest = whole;
                let mut $offset = start;
                while !rest.is_empty() {
                    let ($piece, tail) = rest.split_at(run_end(rest));
                    let len = $piece.len();
                    folder = folder.consume_iter($iter);
                    if folder.full() {
                        break;
                    }
                    $offset += len;
                    rest = tail;
                }
                folder
            }
        }

        impl<'ch> ParallelIterator for $name<'ch> {
            type Item = $item;

            fn drive_unindexed<C: UnindexedConsumer<$item>>(self, consumer: C) -> C::Result {
                bridge_unindexed(Pieces::new(self.chars, &$leaf), consumer)
            }
        }
    };
}

per_char_iterator!(Chars, CharsLeaf, char, |piece, _offset| piece.chars());
per_char_iterator!(
    CharIndices,
    CharIndicesLeaf,
    (usize, char),
    |piece, offset| piece.char_indices().map(move |(i, c)| (offset + i, c))
);
per_char_iterator!(Bytes, BytesLeaf, u8, |piece, _offset| piece.bytes());
per_char_iterator!(EncodeUtf16, EncodeUtf16Leaf, u16, |piece, _offset| piece
    .encode_utf16());
