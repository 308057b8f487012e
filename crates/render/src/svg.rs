//! A few helpers for writing SVG text deterministically.

use std::fmt::Write;

use crate::geom::{Cmd, Path, Pt};

/// A number with at most two decimals, no trailing zeros, never `-0`.
pub fn num(v: f64) -> String {
    let r = (v * 100.0).round() / 100.0;
    let r = if r == 0.0 { 0.0 } else { r };
    let s = format!("{r:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

/// A point as `x,y`.
pub fn pt(p: Pt) -> String {
    format!("{},{}", num(p.x), num(p.y))
}

/// SVG path data.
pub fn d(path: &Path) -> String {
    let mut s = String::new();
    for c in &path.0 {
        if !s.is_empty() {
            s.push(' ');
        }
        match *c {
            Cmd::M(p) => {
                let _ = write!(s, "M{}", pt(p));
            }
            Cmd::L(p) => {
                let _ = write!(s, "L{}", pt(p));
            }
            Cmd::Q(c1, p) => {
                let _ = write!(s, "Q{} {}", pt(c1), pt(p));
            }
            Cmd::C(c1, c2, p) => {
                let _ = write!(s, "C{} {} {}", pt(c1), pt(c2), pt(p));
            }
            Cmd::Z => s.push('Z'),
        }
    }
    s
}

/// A polygon's `points` attribute.
pub fn points(ps: &[Pt]) -> String {
    ps.iter().map(|&p| pt(p)).collect::<Vec<_>>().join(" ")
}

/// Text escaped for element content and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short_and_stable() {
        assert_eq!(num(1.0), "1");
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(33.3333), "33.33");
        assert_eq!(num(12.5), "12.5");
        assert_eq!(esc("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }
}
