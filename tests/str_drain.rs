//! `String::par_drain`: the drained chars are std's, and the string loses the range.

use prorata::prelude::*;

#[test]
fn string_drain_matches_std() {
    let text: String = "añ中𝄞b,".repeat(3000);
    let boundaries: Vec<usize> = text.char_indices().map(|(i, _)| i).step_by(997).collect();
    for &start in &boundaries {
        for &end in boundaries.iter().filter(|&&end| end >= start) {
            let (mut par, mut seq) = (text.clone(), text.clone());
            let got: Vec<char> = par.par_drain(start..end).collect();
            let want: Vec<char> = seq.drain(start..end).collect();
            assert_eq!((got, &par), (want, &seq));
        }
    }
    let mut all = text.clone();
    assert_eq!(all.par_drain(..).collect::<String>(), text);
    assert!(all.is_empty());
}

#[test]
fn unused_string_drain_still_removes_the_range() {
    let mut s = String::from("hello, world");
    drop(s.par_drain(5..));
    assert_eq!(s, "hello");
}

#[test]
#[should_panic(expected = "char boundaries")]
fn string_drain_inside_a_char_panics() {
    let mut s = String::from("añb");
    let _ = s.par_drain(2..);
}
