//! The string splits: `par_split`, `par_split_inclusive`, `par_split_terminator`,
//! `par_lines`, `par_split_whitespace`, `par_split_ascii_whitespace`.
//!
//! Every pattern matches a single char, so a string cut around one match `m` splits
//! as its two sides do: `split(a + m + b) == split(a) ++ split(b)`, and likewise with
//! `m` kept at the end of the left side for the inclusive splits. The producer cuts
//! at a match near the middle and runs std's sequential method on each piece, or, for
//! whitespace and char sets, a byte-by-byte search that gives the same pieces, and
//! for lines and the splits at an ASCII char, a search a word at a time.

use super::Pattern;
use super::byte_split::{self, ByteSplit};
use super::classes::{ByteClasses, ClassSplit, ClassWords, WHITESPACE};
use super::pattern::with_std_pattern;
use super::pieces::middle_boundary;
use crate::iter::plumbing::*;
use crate::iter::*;

/// Which sequential method a piece runs, and so how it is cut.
#[derive(Clone, Copy)]
enum Mode {
    /// `split`: the match is dropped.
    Exclusive,
    /// `split_inclusive`: the match ends the left piece.
    Inclusive,
    /// `split_terminator`: like `Exclusive`, but the last piece drops an empty tail.
    Terminator,
    /// `lines`: cut like `Inclusive` on `'\n'`, each piece runs `str::lines`.
    Lines,
    /// `split_whitespace`: cut at whitespace (a piece's ends need no care: empty
    /// words are dropped), each piece searched byte by byte.
    Whitespace,
    /// `split_ascii_whitespace`: the same at ASCII whitespace; std's method searches
    /// bytes, not chars.
    AsciiWhitespace,
}

impl Mode {
    fn keeps_match(self) -> bool {
        matches!(self, Mode::Inclusive | Mode::Lines)
    }
}

/// A piece of the string to split; `last` when it ends the whole string.
struct SplitProducer<'ch, 'p, P> {
    piece: &'ch str,
    pattern: &'p P,
    mode: Mode,
    last: bool,
    /// True when the piece is known to hold no usable match.
    clean: bool,
    /// The pattern's byte classes, when it is a char set and the mode is a plain split.
    classes: Option<&'p ByteClasses>,
}

/// The byte classes of `pattern` when it is a char set and `mode` splits at it plainly
/// (a single char is searched for as such: [`ByteSplit`] when it is ASCII, std's
/// search otherwise).
fn set_classes<P: Pattern>(pattern: &P, mode: Mode) -> Option<ByteClasses> {
    match mode {
        Mode::Exclusive | Mode::Terminator => pattern.char_set().map(ByteClasses::of_chars),
        _ => None,
    }
}

fn drive<'ch, P, C>(chars: &'ch str, pattern: &P, mode: Mode, consumer: C) -> C::Result
where
    P: Pattern,
    C: UnindexedConsumer<&'ch str>,
{
    let classes = set_classes(pattern, mode);
    let producer = SplitProducer {
        piece: chars,
        pattern,
        mode,
        last: true,
        clean: false,
        classes: classes.as_ref(),
    };
    bridge_unindexed(producer, consumer)
}

impl<P: Pattern> SplitProducer<'_, '_, P> {
    /// The match nearest below the middle, else the nearest above it, as (start,
    /// end); `true` with it when everything before it was found clean.
    fn find_cut(&self) -> Option<(usize, usize, bool)> {
        let s = self.piece;
        // A kept match must leave something on its right, or the cut makes no
        // progress: then the last char is no candidate.
        let limit = match s.chars().next_back() {
            Some(last) if self.mode.keeps_match() => s.len() - last.len_utf8(),
            _ => s.len(),
        };
        let mid = middle_boundary(s).min(limit);
        let (start, left_clean) = with_std_pattern!(self.pattern, |pat| {
            match s[..mid].rfind(pat) {
                Some(start) => (start, false),
                None => (mid + s[mid..limit].find(pat)?, true),
            }
        });
        let width = s[start..].chars().next()?.len_utf8();
        Some((start, start + width, left_clean))
    }
}

impl<'ch, P: Pattern> UnindexedProducer for SplitProducer<'ch, '_, P> {
    type Item = &'ch str;

    fn split(self) -> (Self, Option<Self>) {
        let found = if self.clean { None } else { self.find_cut() };
        let Some((start, end, left_clean)) = found else {
            return (
                SplitProducer {
                    clean: true,
                    ..self
                },
                None,
            );
        };
        let left_end = if self.mode.keeps_match() { end } else { start };
        let left = SplitProducer {
            piece: &self.piece[..left_end],
            last: false,
            clean: left_clean,
            ..self
        };
        let right = SplitProducer {
            piece: &self.piece[end..],
            clean: false,
            ..self
        };
        (left, Some(right))
    }

    fn fold_with<F: Folder<Self::Item>>(self, mut folder: F) -> F {
        // In runs of a couple of thousand bytes, each cut at a match like `split` cuts
        // and handed on whole with a bound on its item count: the pool's safe points
        // come between runs, not between items, and std's loop runs uncounted.
        let mut rest = self.piece;
        loop {
            let cut = if rest.len() > RUN_BYTES {
                self.run_cut(rest)
            } else {
                None
            };
            let Some((left_end, right_start)) = cut else {
                let last = self.last;
                return self.fold_run(rest, last, folder);
            };
            folder = self.fold_run(&rest[..left_end], false, folder);
            if folder.full() {
                return folder;
            }
            rest = &rest[right_start..];
        }
    }
}

/// Bytes in one run of a split's leaf, before the match that ends it. A run of `n`
/// bytes splits into at most `n + 1` pieces, so two runs fit the pool's plain run of
/// 4096 items.
const RUN_BYTES: usize = 2000;

impl<'ch, P: Pattern> SplitProducer<'ch, '_, P> {
    /// Where the first run of `s` ends: the first match after `RUN_BYTES`, as the
    /// end of the left run and the start of the rest (the match goes to the left run
    /// when the mode keeps it); `None` when there is none.
    fn run_cut(&self, s: &str) -> Option<(usize, usize)> {
        let from = (RUN_BYTES..s.len()).find(|&i| s.is_char_boundary(i))?;
        let start = with_std_pattern!(self.pattern, |pat| from + s[from..].find(pat)?);
        let end = start + s[start..].chars().next()?.len_utf8();
        Some(if self.mode.keeps_match() {
            (end, end)
        } else {
            (start, end)
        })
    }

    /// Feeds the items of one run to `folder`; `last` when the run ends the string.
    #[inline]
    fn fold_run<F: Folder<&'ch str>>(&self, run: &'ch str, last: bool, folder: F) -> F {
        // Each arm its own closure type, so that each std search loop has one caller
        // and is inlined into it.
        match self.mode {
            Mode::Terminator if last => {
                with_std_pattern!(self.pattern, |pat| folder
                    .consume_iter(Bounded::new(run, run.split_terminator(pat))))
            }
            // A char set searched byte by byte (std decodes and tests every char).
            Mode::Exclusive | Mode::Terminator if self.classes.is_some() => {
                let classes = self.classes.unwrap();
                let is_match = |c| self.pattern.is_match(c);
                folder.consume_iter(Bounded::new(run, ClassSplit::new(run, classes, is_match)))
            }
            // An ASCII char searched a word at a time.
            Mode::Exclusive | Mode::Terminator => match self.pattern.as_char() {
                Some(c) if c.is_ascii() => {
                    folder.consume_iter(Bounded::new(run, ByteSplit::new(run, c)))
                }
                _ => with_std_pattern!(self.pattern, |pat| folder
                    .consume_iter(Bounded::new(run, run.split(pat)))),
            },
            Mode::Inclusive => match self.pattern.as_char() {
                Some(c) if c.is_ascii() => {
                    folder.consume_iter(Bounded::new(run, ByteSplit::inclusive(run, c)))
                }
                _ => with_std_pattern!(self.pattern, |pat| folder
                    .consume_iter(Bounded::new(run, run.split_inclusive(pat)))),
            },
            Mode::Lines => folder.consume_iter(Bounded::new(run, byte_split::lines(run))),
            Mode::Whitespace => folder.consume_iter(Bounded::new(
                run,
                ClassWords::new(run, &WHITESPACE, char::is_whitespace),
            )),
            Mode::AsciiWhitespace => {
                folder.consume_iter(Bounded::new(run, run.split_ascii_whitespace()))
            }
        }
    }
}

/// A split of one run, with the bound on its length that std's iterators do not
/// give: a string of `n` bytes splits into at most `n + 1` pieces.
struct Bounded<I> {
    iter: I,
    most: usize,
}

impl<'ch, I: Iterator<Item = &'ch str>> Bounded<I> {
    #[inline]
    fn new(run: &'ch str, iter: I) -> Self {
        Bounded {
            iter,
            most: run.len() + 1,
        }
    }
}

impl<'ch, I: Iterator<Item = &'ch str>> Iterator for Bounded<I> {
    type Item = &'ch str;

    #[inline]
    fn next(&mut self) -> Option<&'ch str> {
        self.iter.next()
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.most))
    }

    #[inline]
    fn fold<B, G: FnMut(B, &'ch str) -> B>(self, init: B, g: G) -> B {
        self.iter.fold(init, g)
    }
}

/// Parallel iterator over the substrings separated by a pattern, made by
/// [`par_split`](super::ParallelString::par_split).
///
/// ```
/// use prorata::prelude::*;
/// let it: prorata::str::Split<'_, char> = "a,b".par_split(',');
/// it.for_each(|s| assert_eq!(s.len(), 1));
/// ```
#[derive(Debug, Clone)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct Split<'ch, P: Pattern> {
    pub(super) chars: &'ch str,
    pub(super) separator: P,
}

/// Parallel iterator over the substrings each ending with a match of a pattern
/// (kept), made by [`par_split_inclusive`](super::ParallelString::par_split_inclusive).
///
/// ```
/// use prorata::prelude::*;
/// let it: prorata::str::SplitInclusive<'_, char> = "a,b,".par_split_inclusive(',');
/// it.for_each(|s| assert_eq!(s.len(), 2));
/// ```
#[derive(Debug, Clone)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct SplitInclusive<'ch, P: Pattern> {
    pub(super) chars: &'ch str,
    pub(super) separator: P,
}

/// Parallel iterator over the substrings terminated by a pattern, made by
/// [`par_split_terminator`](super::ParallelString::par_split_terminator).
///
/// ```
/// use prorata::prelude::*;
/// let it: prorata::str::SplitTerminator<'_, char> = "a;b;".par_split_terminator(';');
/// it.for_each(|s| assert_eq!(s.len(), 1));
/// ```
#[derive(Debug, Clone)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct SplitTerminator<'ch, P: Pattern> {
    pub(super) chars: &'ch str,
    pub(super) terminator: P,
}

/// Parallel iterator over the lines of a string, made by
/// [`par_lines`](super::ParallelString::par_lines).
///
/// ```
/// use prorata::prelude::*;
/// let it: prorata::str::Lines<'_> = "a\r\nb\n".par_lines();
/// it.for_each(|line| assert_eq!(line.len(), 1));
/// ```
#[derive(Debug, Clone)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct Lines<'ch>(pub(super) &'ch str);

/// Parallel iterator over the substrings separated by Unicode whitespace, made by
/// [`par_split_whitespace`](super::ParallelString::par_split_whitespace).
///
/// ```
/// use prorata::prelude::*;
/// let it: prorata::str::SplitWhitespace<'_> = " a\u{3000}b ".par_split_whitespace();
/// it.for_each(|word| assert_eq!(word.len(), 1));
/// ```
#[derive(Debug, Clone)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct SplitWhitespace<'ch>(pub(super) &'ch str);

/// Parallel iterator over the substrings separated by ASCII whitespace, made by
/// [`par_split_ascii_whitespace`](super::ParallelString::par_split_ascii_whitespace).
///
/// ```
/// use prorata::prelude::*;
/// let it: prorata::str::SplitAsciiWhitespace<'_> = " a\tb ".par_split_ascii_whitespace();
/// it.for_each(|word| assert_eq!(word.len(), 1));
/// ```
#[derive(Debug, Clone)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct SplitAsciiWhitespace<'ch>(pub(super) &'ch str);

impl<'ch, P: Pattern> ParallelIterator for Split<'ch, P> {
    type Item = &'ch str;

    fn drive_unindexed<C: UnindexedConsumer<Self::Item>>(self, consumer: C) -> C::Result {
        drive(self.chars, &self.separator, Mode::Exclusive, consumer)
    }
}

impl<'ch, P: Pattern> ParallelIterator for SplitInclusive<'ch, P> {
    type Item = &'ch str;

    fn drive_unindexed<C: UnindexedConsumer<Self::Item>>(self, consumer: C) -> C::Result {
        drive(self.chars, &self.separator, Mode::Inclusive, consumer)
    }
}

impl<'ch, P: Pattern> ParallelIterator for SplitTerminator<'ch, P> {
    type Item = &'ch str;

    fn drive_unindexed<C: UnindexedConsumer<Self::Item>>(self, consumer: C) -> C::Result {
        drive(self.chars, &self.terminator, Mode::Terminator, consumer)
    }
}

impl<'ch> ParallelIterator for Lines<'ch> {
    type Item = &'ch str;

    fn drive_unindexed<C: UnindexedConsumer<Self::Item>>(self, consumer: C) -> C::Result {
        drive(self.0, &'\n', Mode::Lines, consumer)
    }
}

impl<'ch> ParallelIterator for SplitWhitespace<'ch> {
    type Item = &'ch str;

    fn drive_unindexed<C: UnindexedConsumer<Self::Item>>(self, consumer: C) -> C::Result {
        drive(self.0, &char::is_whitespace, Mode::Whitespace, consumer)
    }
}

impl<'ch> ParallelIterator for SplitAsciiWhitespace<'ch> {
    type Item = &'ch str;

    fn drive_unindexed<C: UnindexedConsumer<Self::Item>>(self, consumer: C) -> C::Result {
        let is_space = |c: char| c.is_ascii_whitespace();
        drive(self.0, &is_space, Mode::AsciiWhitespace, consumer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::slice::split_fully;

    fn split_all<'ch>(s: &'ch str, mode: Mode, pattern: &impl Pattern) -> Vec<&'ch str> {
        let mut got = Vec::new();
        let classes = set_classes(pattern, mode);
        let producer = SplitProducer {
            piece: s,
            pattern,
            mode,
            last: true,
            clean: false,
            classes: classes.as_ref(),
        };
        split_fully(producer, &mut got);
        got
    }

    struct Push<'ch>(Vec<&'ch str>);

    impl<'ch> Folder<&'ch str> for Push<'ch> {
        type Result = Vec<&'ch str>;
        fn consume(mut self, item: &'ch str) -> Self {
            self.0.push(item);
            self
        }
        fn complete(self) -> Vec<&'ch str> {
            self.0
        }
        fn full(&self) -> bool {
            false
        }
    }

    /// Folds `s` whole, as one leaf: in runs when it is long.
    fn fold_whole<'ch>(s: &'ch str, mode: Mode, pattern: &impl Pattern) -> Vec<&'ch str> {
        let classes = set_classes(pattern, mode);
        let producer = SplitProducer {
            piece: s,
            pattern,
            mode,
            last: true,
            clean: false,
            classes: classes.as_ref(),
        };
        producer.fold_with(Push(Vec::new())).complete()
    }

    /// Asserts that `$split` (`fold_whole` or `split_all`) cuts `$s` as std's
    /// splits do, in every mode (a macro: each mode takes its own pattern type).
    macro_rules! assert_every_mode_matches_std {
        ($split:ident, $s:expr) => {{
            let s: &str = $s;
            let comma = ',';
            let split: Vec<_> = s.split(',').collect();
            assert_eq!($split(s, Mode::Exclusive, &comma), split);
            let inclusive: Vec<_> = s.split_inclusive(',').collect();
            assert_eq!($split(s, Mode::Inclusive, &comma), inclusive);
            let terminated: Vec<_> = s.split_terminator(',').collect();
            assert_eq!($split(s, Mode::Terminator, &comma), terminated);
            let words: Vec<_> = s.split_whitespace().collect();
            assert_eq!($split(s, Mode::Whitespace, &char::is_whitespace), words);
            let ascii_words: Vec<_> = s.split_ascii_whitespace().collect();
            let is_space = |c: char| c.is_ascii_whitespace();
            assert_eq!($split(s, Mode::AsciiWhitespace, &is_space), ascii_words);
            let lines: Vec<_> = s.lines().collect();
            assert_eq!($split(s, Mode::Lines, &'\n'), lines);
        }};
    }

    #[test]
    fn long_leaves_folded_in_runs_match_std() {
        let alphabet = [
            "a", ",", "é", "\n", "\r\n", " ", "𝄞", "\u{3000}", "\u{b}", "bc",
        ];
        let mut texts = vec![
            String::new(),
            " ".repeat(5000),
            "\u{3000}\u{85}\u{a0}\t".repeat(1500),
            ",".repeat(4500),
            "\n".repeat(4500),
            format!("{},", "a".repeat(RUN_BYTES)),
            format!("{}\n", "a".repeat(RUN_BYTES - 1)),
            format!(",{},{}", "é".repeat(3000), "x".repeat(9000)),
        ];
        for n in 0..40usize {
            let len = 1900 + n * 211;
            let text: String = (0..len)
                .map(|i| alphabet[(i * i + n * 7 + i / 97) % 10])
                .collect();
            texts.push(text);
        }
        for s in &texts {
            let s = s.as_str();
            assert_every_mode_matches_std!(fold_whole, s);
            let char_set = [',', '\u{3000}'];
            let split: Vec<_> = s.split(&char_set[..]).collect();
            assert_eq!(fold_whole(s, Mode::Exclusive, &&char_set[..]), split);
            assert_eq!(split_all(s, Mode::Exclusive, &char_set), split);
            let terminated: Vec<_> = s.split_terminator(&char_set[..]).collect();
            assert_eq!(fold_whole(s, Mode::Terminator, &char_set), terminated);
            assert_eq!(split_all(s, Mode::Terminator, &&char_set), terminated);
            let words: Vec<_> = s.split_whitespace().collect();
            assert_eq!(split_all(s, Mode::Whitespace, &char::is_whitespace), words);
        }
    }

    #[test]
    fn splitting_all_the_way_down_matches_std() {
        let alphabet = ["a", ",", "é", "\n", "\r\n", " ", "𝄞", "\u{3000}"];
        for n in 0..300usize {
            let s: String = (0..n % 23).map(|i| alphabet[(i * i + n) % 8]).collect();
            let s = s.as_str();
            assert_every_mode_matches_std!(split_all, s);
        }
    }
}
