//! `par_matches` and `par_match_indices`: every pattern matches one char, so a string
//! cut at any char boundary loses no match.

use super::Pattern;
use super::pattern::with_std_pattern;
use super::pieces::{Leaf, Pieces};
use crate::iter::plumbing::*;
use crate::iter::*;

/// Parallel iterator over the matches of a pattern, made by
/// [`par_matches`](super::ParallelString::par_matches).
///
/// ```
/// use prorata::prelude::*;
/// let it: prorata::str::Matches<'_, char> = "a,b,c".par_matches(',');
/// it.for_each(|m| assert_eq!(m, ","));
/// ```
#[derive(Debug, Clone)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct Matches<'ch, P: Pattern> {
    pub(super) chars: &'ch str,
    pub(super) pattern: P,
}

/// Parallel iterator over the matches of a pattern and their byte offsets, made by
/// [`par_match_indices`](super::ParallelString::par_match_indices).
///
/// ```
/// use prorata::prelude::*;
/// let it: prorata::str::MatchIndices<'_, char> = "a,b".par_match_indices(',');
/// it.for_each(|m| assert_eq!(m, (1, ",")));
/// ```
#[derive(Debug, Clone)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct MatchIndices<'ch, P: Pattern> {
    pub(super) chars: &'ch str,
    pub(super) pattern: P,
}

struct MatchesLeaf<'p, P>(&'p P);

impl<'ch, P: Pattern> Leaf<'ch> for MatchesLeaf<'_, P> {
    type Item = &'ch str;
    fn fold<F: Folder<&'ch str>>(&self, piece: &'ch str, _offset: usize, folder: F) -> F {
        with_std_pattern!(self.0, |pat| folder.consume_iter(piece.matches(pat)))
    }
}

struct MatchIndicesLeaf<'p, P>(&'p P);

impl<'ch, P: Pattern> Leaf<'ch> for MatchIndicesLeaf<'_, P> {
    type Item = (usize, &'ch str);
    fn fold<F: Folder<Self::Item>>(&self, piece: &'ch str, offset: usize, folder: F) -> F {
        with_std_pattern!(self.0, |pat| {
            let found = piece.match_indices(pat);
            folder.consume_iter(found.map(|(i, m)| (offset + i, m)))
        })
    }
}

impl<'ch, P: Pattern> ParallelIterator for Matches<'ch, P> {
    type Item = &'ch str;

    fn drive_unindexed<C: UnindexedConsumer<Self::Item>>(self, consumer: C) -> C::Result {
        let leaf = MatchesLeaf(&self.pattern);
        bridge_unindexed(Pieces::new(self.chars, &leaf), consumer)
    }
}

impl<'ch, P: Pattern> ParallelIterator for MatchIndices<'ch, P> {
    type Item = (usize, &'ch str);

    fn drive_unindexed<C: UnindexedConsumer<Self::Item>>(self, consumer: C) -> C::Result {
        let leaf = MatchIndicesLeaf(&self.pattern);
        bridge_unindexed(Pieces::new(self.chars, &leaf), consumer)
    }
}
