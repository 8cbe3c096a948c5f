//! Strings and OS strings from characters and string pieces, against std's `collect`.

mod common;

use std::borrow::Cow;
use std::ffi::{OsStr, OsString};

use common::cases::for_all;
use common::plumbing::Unindexed;
use prorata::prelude::*;

/// A character that is sometimes several bytes long.
fn ch(i: usize) -> char {
    ['a', 'é', '中', '🦀', 'z'][i % 5]
}

fn word(i: usize) -> String {
    format!("{i}{}", ch(i))
}

#[test]
fn string_from_chars() {
    for_all(|len| {
        let want: String = (0..len).map(ch).collect();
        let got: String = (0..len).into_par_iter().map(ch).collect();
        assert_eq!(got, want);
        let got: String = Unindexed((0..len).into_par_iter().map(ch)).collect();
        assert_eq!(got, want);
        let chars: Vec<char> = (0..len).map(ch).collect();
        let got: String = chars.par_iter().collect();
        assert_eq!(got, want);
    });
}

#[test]
fn string_from_string_pieces() {
    for_all(|len| {
        let words: Vec<String> = (0..len).map(word).collect();
        let want: String = words.concat();
        let strs: String = words.par_iter().map(String::as_str).collect();
        let owned: String = (0..len).into_par_iter().map(word).collect();
        let boxed: String = (0..len)
            .into_par_iter()
            .map(|i| word(i).into_boxed_str())
            .collect();
        let cows: String = words
            .par_iter()
            .map(|w| {
                if w.len() % 2 == 0 {
                    Cow::Borrowed(w.as_str())
                } else {
                    Cow::Owned(w.clone())
                }
            })
            .collect();
        assert_eq!(strs, want);
        assert_eq!(owned, want);
        assert_eq!(boxed, want);
        assert_eq!(cows, want);
    });
}

#[test]
fn boxed_str_and_cow_str() {
    for_all(|len| {
        let want: String = (0..len).map(ch).collect();
        let boxed: Box<str> = (0..len).into_par_iter().map(ch).collect();
        let cow: Cow<'_, str> = (0..len).into_par_iter().map(word).collect();
        assert_eq!(&*boxed, want);
        assert_eq!(cow, (0..len).map(word).collect::<String>());
    });
}

#[test]
fn par_extend_appends_to_existing_text() {
    for_all(|len| {
        let mut text = String::from("start:");
        text.par_extend((0..len).into_par_iter().map(ch));
        text.par_extend((0..len).into_par_iter().map(word));
        let mut want = String::from("start:");
        want.extend((0..len).map(ch));
        want.extend((0..len).map(word));
        assert_eq!(text, want);
    });
}

#[test]
fn os_string_from_os_str_pieces_as_rayon() {
    for_all(|len| {
        let words: Vec<OsString> = (0..len).map(|i| OsString::from(word(i))).collect();
        let want: OsString = words.iter().map(OsString::as_os_str).collect();
        let slices: OsString = words.par_iter().map(OsString::as_os_str).collect();
        let owned: OsString = (0..len)
            .into_par_iter()
            .map(|i| OsString::from(word(i)))
            .collect();
        let hidden: OsString = Unindexed(words.par_iter().map(OsString::as_os_str)).collect();
        let cows: OsString = words
            .par_iter()
            .map(|w| match w.len() % 2 {
                0 => Cow::Borrowed(w.as_os_str()),
                _ => Cow::Owned(w.clone()),
            })
            .collect();
        assert_eq!(slices, want);
        assert_eq!(owned, want);
        assert_eq!(hidden, want);
        assert_eq!(cows, want);

        let mut text = OsString::from("start:");
        text.par_extend(words.par_iter().map(OsString::as_os_str));
        text.par_extend(words.par_iter().cloned());
        text.par_extend(words.par_iter().map(|w| Cow::Borrowed(w.as_os_str())));
        let mut expected = OsString::from("start:");
        for _ in 0..3 {
            expected.push(&want);
        }
        assert_eq!(text, expected);
        assert_eq!(OsStr::new("start:").len() + 3 * want.len(), text.len());
    });
}
