//! The distance histogram as inline SVG.

use std::fmt::Write;

use super::{Histogram, Rate};

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 220.0;
const LEFT: f64 = 48.0;
const BOTTOM: f64 = 28.0;
const TOP: f64 = 12.0;

/// An SVG bar chart of `h.bars()` with the threshold drawn as a line after its bucket; its
/// ids are `{prefix}histogram-svg` and `{prefix}threshold`.
pub fn histogram(h: &Histogram, prefix: &str) -> String {
    let bars = h.bars();
    let most = bars.iter().copied().max().unwrap_or(0).max(1);
    let plot_w = WIDTH - LEFT - 8.0;
    let plot_h = HEIGHT - BOTTOM - TOP;
    let step = plot_w / bars.len() as f64;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg id=\"{prefix}histogram-svg\" viewBox=\"0 0 {WIDTH} \
         {HEIGHT}\" width=\"{WIDTH}\" height=\"{HEIGHT}\" role=\"img\" aria-label=\"pages by \
         distance in bits to their kept page\">"
    );
    let base = TOP + plot_h;
    let _ = writeln!(
        out,
        "<line class=\"axis\" x1=\"{LEFT}\" y1=\"{base}\" x2=\"{}\" y2=\"{base}\"/>\
         <text x=\"{}\" y=\"{}\" text-anchor=\"end\">{most}</text>\
         <text x=\"{}\" y=\"{base}\" text-anchor=\"end\">0</text>",
        LEFT + plot_w,
        LEFT - 6.0,
        TOP + 10.0,
        LEFT - 6.0
    );
    let label_every = (bars.len() / 16).max(1);
    for (i, &n) in bars.iter().enumerate() {
        let x = LEFT + i as f64 * step;
        let height = n as f64 / most as f64 * plot_h;
        let class = if i as u32 <= h.threshold {
            "bar in"
        } else {
            "bar"
        };
        let _ = writeln!(
            out,
            "<rect class=\"{class}\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{height:.1}\">\
             <title>{i} bits: {n} page{}</title></rect>",
            x + 1.0,
            base - height,
            (step - 2.0).max(1.0),
            if n == 1 { "" } else { "s" }
        );
        if i % label_every == 0 {
            let _ = writeln!(
                out,
                "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{i}</text>",
                x + step / 2.0,
                base + 16.0
            );
        }
    }
    let tx = LEFT + (h.threshold as f64 + 1.0) * step;
    let _ = writeln!(
        out,
        "<line id=\"{prefix}threshold\" class=\"threshold\" x1=\"{tx:.1}\" y1=\"{TOP}\" x2=\"{tx:.1}\" \
         y2=\"{base}\"/><text class=\"threshold\" x=\"{:.1}\" y=\"{}\" \
         text-anchor=\"end\">threshold {}</text>",
        tx - 4.0,
        TOP + 10.0,
        h.threshold
    );
    out.push_str("</svg>\n");
    out
}

/// An SVG bar chart of records per bucket over the crawl.
pub fn rate(r: &Rate) -> String {
    let most = r.counts.iter().copied().max().unwrap_or(0).max(1);
    let plot_w = WIDTH - LEFT - 8.0;
    let plot_h = HEIGHT - BOTTOM - TOP;
    let step = plot_w / r.counts.len().max(1) as f64;
    let base = TOP + plot_h;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg id=\"rate-svg\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" width=\"{WIDTH}\" \
         height=\"{HEIGHT}\" role=\"img\" aria-label=\"pages recorded per {} s\">\
         <line class=\"axis\" x1=\"{LEFT}\" y1=\"{base}\" x2=\"{}\" y2=\"{base}\"/>\
         <text x=\"{}\" y=\"{}\" text-anchor=\"end\">{most}</text>\
         <text x=\"{}\" y=\"{base}\" text-anchor=\"end\">0</text>",
        r.bucket_secs,
        LEFT + plot_w,
        LEFT - 6.0,
        TOP + 10.0,
        LEFT - 6.0
    );
    for (i, &n) in r.counts.iter().enumerate() {
        let height = n as f64 / most as f64 * plot_h;
        let _ = writeln!(
            out,
            "<rect class=\"bar\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{height:.1}\">\
             <title>from {} s: {n} page{}</title></rect>",
            LEFT + i as f64 * step,
            base - height,
            step.max(1.0),
            i as u64 * r.bucket_secs,
            if n == 1 { "" } else { "s" }
        );
    }
    let _ = writeln!(
        out,
        "<text x=\"{LEFT}\" y=\"{}\">0 s</text><text x=\"{}\" y=\"{}\" \
         text-anchor=\"end\">{} s</text></svg>",
        base + 16.0,
        LEFT + plot_w,
        base + 16.0,
        r.counts.len() as u64 * r.bucket_secs
    );
    out
}
