//! Parallel iterators over strings: [`ParallelString`], Rayon's `str` methods.
//!
//! A string is cut at char boundaries (for the per-char iterators) or at a match of
//! the pattern (for the splits); each piece runs std's sequential method, or a search
//! of its own that gives the same items, so the items are exactly std's, in std's order.
//!
//! ```
//! use prorata::prelude::*;
//! let words = std::sync::atomic::AtomicUsize::new(0);
//! "the quick brown fox".par_split_whitespace().for_each(|_| {
//!     words.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
//! });
//! assert_eq!(words.into_inner(), 4);
//! ```

mod byte_split;
mod chars;
mod classes;
pub(crate) mod drain;
mod matches;
mod pattern;
mod pieces;
mod split;

pub use chars::{Bytes, CharIndices, Chars, EncodeUtf16};
pub use matches::{MatchIndices, Matches};
pub use pattern::Pattern;
pub use split::{
    Lines, Split, SplitAsciiWhitespace, SplitInclusive, SplitTerminator, SplitWhitespace,
};

/// Parallel methods of string slices, as in Rayon. Patterns are single chars, char
/// sets or char predicates (see [`Pattern`]).
///
/// ```
/// use prorata::prelude::*;
/// let n = std::sync::atomic::AtomicUsize::new(0);
/// "a,b,c".par_split(',').for_each(|_| {
///     n.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
/// });
/// assert_eq!(n.into_inner(), 3);
/// ```
pub trait ParallelString {
    /// Returns the plain string the other methods work on.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert_eq!(String::from("hi").as_parallel_string(), "hi");
    /// ```
    fn as_parallel_string(&self) -> &str;

    /// The chars of the string, like [`str::chars`].
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let vowels = std::sync::atomic::AtomicUsize::new(0);
    /// "héllo wörld".par_chars().for_each(|c| {
    ///     if "aeiouéö".contains(c) {
    ///         vowels.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    ///     }
    /// });
    /// assert_eq!(vowels.into_inner(), 3);
    /// ```
    fn par_chars(&self) -> Chars<'_> {
        Chars {
            chars: self.as_parallel_string(),
        }
    }

    /// The chars of the string with their byte offsets, like [`str::char_indices`].
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let last = std::sync::atomic::AtomicUsize::new(0);
    /// "añb".par_char_indices().for_each(|(i, _)| {
    ///     last.fetch_max(i, std::sync::atomic::Ordering::Relaxed);
    /// });
    /// assert_eq!(last.into_inner(), 3);
    /// ```
    fn par_char_indices(&self) -> CharIndices<'_> {
        CharIndices {
            chars: self.as_parallel_string(),
        }
    }

    /// The bytes of the string, like [`str::bytes`].
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let sum = std::sync::atomic::AtomicU32::new(0);
    /// "AB".par_bytes().for_each(|b| {
    ///     sum.fetch_add(u32::from(b), std::sync::atomic::Ordering::Relaxed);
    /// });
    /// assert_eq!(sum.into_inner(), 65 + 66);
    /// ```
    fn par_bytes(&self) -> Bytes<'_> {
        Bytes {
            chars: self.as_parallel_string(),
        }
    }

    /// The string as UTF-16 code units, like [`str::encode_utf16`].
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let units = std::sync::atomic::AtomicUsize::new(0);
    /// "a𝄞".par_encode_utf16().for_each(|_| {
    ///     units.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    /// });
    /// assert_eq!(units.into_inner(), 3);
    /// ```
    fn par_encode_utf16(&self) -> EncodeUtf16<'_> {
        EncodeUtf16 {
            chars: self.as_parallel_string(),
        }
    }

    /// The substrings separated by matches of `separator`, like [`str::split`].
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let total = std::sync::atomic::AtomicUsize::new(0);
    /// "1,,22,333".par_split(',').for_each(|s| {
    ///     total.fetch_add(s.len(), std::sync::atomic::Ordering::Relaxed);
    /// });
    /// assert_eq!(total.into_inner(), 6);
    /// ```
    fn par_split<P: Pattern>(&self, separator: P) -> Split<'_, P> {
        Split {
            chars: self.as_parallel_string(),
            separator,
        }
    }

    /// The substrings each ending with a match of `separator` (kept), like
    /// [`str::split_inclusive`].
    ///
    /// ```
    /// use prorata::prelude::*;
    /// "a\nb\n".par_split_inclusive('\n').for_each(|s| assert!(s.ends_with('\n')));
    /// ```
    fn par_split_inclusive<P: Pattern>(&self, separator: P) -> SplitInclusive<'_, P> {
        SplitInclusive {
            chars: self.as_parallel_string(),
            separator,
        }
    }

    /// The substrings terminated by matches of `terminator`: like
    /// [`par_split`](Self::par_split) without a trailing empty substring, like
    /// [`str::split_terminator`].
    ///
    /// ```
    /// use prorata::prelude::*;
    /// "a;b;".par_split_terminator(';').for_each(|s| assert!(!s.is_empty()));
    /// ```
    fn par_split_terminator<P: Pattern>(&self, terminator: P) -> SplitTerminator<'_, P> {
        SplitTerminator {
            chars: self.as_parallel_string(),
            terminator,
        }
    }

    /// The lines of the string, without their `\n` or `\r\n` endings, like
    /// [`str::lines`].
    ///
    /// ```
    /// use prorata::prelude::*;
    /// "one\r\ntwo\nsix".par_lines().for_each(|line| assert_eq!(line.len(), 3));
    /// ```
    fn par_lines(&self) -> Lines<'_> {
        Lines(self.as_parallel_string())
    }

    /// The non-empty substrings separated by Unicode whitespace, like
    /// [`str::split_whitespace`].
    ///
    /// ```
    /// use prorata::prelude::*;
    /// " a  b\u{2003}c ".par_split_whitespace().for_each(|w| assert_eq!(w.len(), 1));
    /// ```
    fn par_split_whitespace(&self) -> SplitWhitespace<'_> {
        SplitWhitespace(self.as_parallel_string())
    }

    /// The non-empty substrings separated by ASCII whitespace, like
    /// [`str::split_ascii_whitespace`].
    ///
    /// ```
    /// use prorata::prelude::*;
    /// " a \t b\n".par_split_ascii_whitespace().for_each(|w| assert_eq!(w.len(), 1));
    /// ```
    fn par_split_ascii_whitespace(&self) -> SplitAsciiWhitespace<'_> {
        SplitAsciiWhitespace(self.as_parallel_string())
    }

    /// The matches of `pattern`, like [`str::matches`].
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let digits = std::sync::atomic::AtomicUsize::new(0);
    /// "a1b22c".par_matches(char::is_numeric).for_each(|_| {
    ///     digits.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    /// });
    /// assert_eq!(digits.into_inner(), 3);
    /// ```
    fn par_matches<P: Pattern>(&self, pattern: P) -> Matches<'_, P> {
        Matches {
            chars: self.as_parallel_string(),
            pattern,
        }
    }

    /// The matches of `pattern` with their byte offsets, like [`str::match_indices`].
    ///
    /// ```
    /// use prorata::prelude::*;
    /// "ñ-a".par_match_indices('-').for_each(|(i, m)| assert_eq!((i, m), (2, "-")));
    /// ```
    fn par_match_indices<P: Pattern>(&self, pattern: P) -> MatchIndices<'_, P> {
        MatchIndices {
            chars: self.as_parallel_string(),
            pattern,
        }
    }
}

impl ParallelString for str {
    fn as_parallel_string(&self) -> &str {
        self
    }
}
