//! Drawing pieces, boards and sheets as SVG text.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use bastide_engine::expansions::map_chips::{Chip, Colour, SPACES};
use bastide_engine::Piece;
use bastide_engine::{Action, Figure, Game, Phase};
use bastide_engine::{Catalog, FeatureKind, Shape, TileDef, TileIdx};
use bastide_engine::{Corner, Pos, Rotation};

use crate::geom::{self, Deco, Pt, TileGeom, S};
use crate::svg::{d, esc, num, points, pt};
use crate::{BoardOptions, ChumakSquare, FigureKind, MapScene, PlagueScene, Scene};

const STYLE: &str = "\
.table{fill:#ece7db}\
.gridline{fill:none;stroke:#bdb39c;stroke-width:1;stroke-dasharray:4 4}\
.coord{font-size:16px;fill:#6b6355;text-anchor:middle}\
.field{fill:#8fc25b}\
.city{fill:#e0b87f}\
.wall{fill:none;stroke:#7b4a21;stroke-width:5;stroke-linecap:round}\
.roadedge{fill:none;stroke:#6f624c;stroke-width:12;stroke-linecap:round}\
.road{fill:none;stroke:#f7f1de;stroke-width:8.5;stroke-linecap:round}\
.riveredge{fill:none;stroke:#2c66a3;stroke-width:17;stroke-linecap:round}\
.river{fill:none;stroke:#5aa7ea;stroke-width:13;stroke-linecap:round}\
.pond{fill:#5aa7ea;stroke:#2c66a3;stroke-width:2}\
.house{fill:#f2e6c8;stroke:#4a3b2c;stroke-width:1.5;stroke-linejoin:round}\
.tileedge{fill:none;stroke:#33491f;stroke-width:1.2;stroke-opacity:0.75}\
.gap{stroke:#8a5a44;stroke-width:1.5;stroke-dasharray:5 4}\
.legal{fill:#ffd84d;fill-opacity:0.45;stroke:#b88700;stroke-width:2;stroke-dasharray:6 4}\
.highlight{fill:#fff36b;fill-opacity:0.35;stroke:#e0a800;stroke-width:4}\
.last{fill:none;stroke:#fff36b;stroke-width:3;stroke-opacity:0.9}\
.mwall{fill:#f4ead6;stroke:#3f3226;stroke-width:1.5}\
.mroof{fill:#b8402b;stroke:#3f3226;stroke-width:1.5;stroke-linejoin:round}\
.mcross{fill:none;stroke:#3f3226;stroke-width:2}\
.iroof{fill:#7a4fb0;stroke:#3f3226;stroke-width:1.5;stroke-linejoin:round}\
.shield{fill:#2749a8;stroke:#f8f3e3;stroke-width:1.6;stroke-linejoin:round}\
.chevron{fill:none;stroke:#f3cf3c;stroke-width:2}\
.tree{fill:#3d7d2c;stroke:#24461a;stroke-width:1.2}\
.sroof{fill:#5d6d82;stroke:#3f3226;stroke-width:1.5;stroke-linejoin:round}\
.pig{fill:#f2a7b8;stroke:#7a3f52;stroke-width:1.2}\
.badge{fill:#fffbe8;stroke:#5a4632;stroke-width:1.5}\
.badgetext{font-size:11px;font-weight:bold;fill:#5a4632;text-anchor:middle}\
.ginger{fill:#b5702f;stroke:#5b3210;stroke-width:1.4;stroke-linejoin:round}\
.icing{fill:none;stroke:#ffffff;stroke-width:1.5;stroke-linecap:round}\
.halo{fill:#ffffff;stroke:#ffffff;stroke-width:5;stroke-linejoin:round}\
.meeple{stroke:#161616;stroke-width:1.6;stroke-linejoin:round}\
.label{font-size:13px;fill:#3a3428;text-anchor:middle}\
.small{font-size:11px;fill:#6b6355;text-anchor:middle}\
.title{font-size:22px;fill:#3a3428}\
.legend{font-size:18px;fill:#3a3428}";

/// Styles of a map's squares, start flags, Chumak squares and chips (only
/// in pictures of a board on a map).
const MAP_STYLE: &str = "\
.mapsq{fill:#f6e5b8;stroke:#e0c68c;stroke-width:1}\
.chumaksq{fill:#ebcd92}\
.mapedge{fill:none;stroke:#8b6a3e;stroke-width:3;stroke-linecap:square}\
.mapland{fill:#efe1bd;stroke:none}\
.mapsqedge{fill:none;stroke:#a8875a;stroke-width:1.5;stroke-dasharray:4 3}\
.mapborder{fill:none;stroke:#8b6a3e;stroke-width:3;stroke-linejoin:round}\
.pole{fill:none;stroke:#3f3226;stroke-width:2}\
.polehalo{fill:none;stroke:#ffffff;stroke-width:5}\
.flag{fill:#1f6f66;stroke:#0f3833;stroke-width:1;stroke-linejoin:round}\
.flagnum{font-size:10px;font-weight:bold;fill:#ffffff;text-anchor:middle}\
.wheel{fill:#f8eed5;stroke:#5b3a1e;stroke-width:2.4}\
.spoke{fill:none;stroke:#5b3a1e;stroke-width:1.6}\
.hub{fill:#5b3a1e}\
.town{font-size:12px;font-weight:bold;fill:#5b3a1e}\
.townpill{fill:#f8eed5;fill-opacity:0.92;stroke:#5b3a1e;stroke-width:1}\
.townsmall{font-size:11px;font-weight:bold;fill:#5b3a1e}\
.chipspace{fill:#f6ead0;stroke:#a88a5a;stroke-width:1;stroke-dasharray:3 2}\
.chip{stroke:#2e2418;stroke-width:1.2}\
.chipval{font-size:10px;font-weight:bold;text-anchor:middle}";

/// Styles of the Plague's tokens (only in pictures of a game with the
/// Plague).
const PLAGUE_STYLE: &str = "\
.outbreak{stroke-width:1.8}\
.outbreak.active{fill:#c62828;stroke:#4a0a0a}\
.outbreak.eradicated{fill:#7dbb4a;stroke:#2f5e17}\
.rat{fill:#2a0707}\
.rattail{fill:none;stroke:#2a0707;stroke-width:1.1;stroke-linecap:round}\
.tuft{fill:none;stroke:#3d7420;stroke-width:1.2;stroke-linejoin:round}\
.obnum{font-size:12px;font-weight:bold;text-anchor:middle}\
.active .obnum{fill:#ffffff}\
.eradicated .obnum{fill:#143208}\
.flea{stroke-width:1.6}\
.flea.active{fill:#d7263d;stroke:#4d0711}\
.flea.latent{fill:#f7b5c8;stroke:#a8476b}\
.bug.active{fill:#2b0508;stroke:#2b0508}\
.bug.latent{fill:#8c2f55;stroke:#8c2f55}";

/// The plague doctor's symbol of a source tile, about 23 units wide: a
/// beaked mask under a broad hat, on a light disc with a dark red ring.
const PLAGUE_DOCTOR: &str = "<g transform=\"scale(0.88)\"><circle r=\"12.5\" fill=\"#f4ecd6\" stroke=\"#7a1f1f\" stroke-width=\"1.6\"/>\
<g transform=\"translate(0.8,0.4)\"><path d=\"M-8,9.5 Q-8,3.5 -2.5,3 L1.5,3 Q6.5,3.5 6.5,9.5 Z\" fill=\"#2b2b2b\"/>\
<circle cx=\"-2.5\" cy=\"-1\" r=\"4.8\" fill=\"#2b2b2b\"/>\
<path d=\"M-1.5,-3.2 Q5.6,-2.8 9.4,4.2 Q4,2.4 -1.5,2.4 Z\" fill=\"#efe6cc\" stroke=\"#2b2b2b\" stroke-width=\"1\" stroke-linejoin=\"round\"/>\
<circle cx=\"0.4\" cy=\"-1.3\" r=\"1.7\" fill=\"#c0392b\" stroke=\"#2b2b2b\" stroke-width=\"0.7\"/>\
<path d=\"M-9.8,-5 H5.8\" stroke=\"#2b2b2b\" stroke-width=\"2.2\" stroke-linecap=\"round\"/>\
<path d=\"M-6.5,-5 L-5.6,-10.2 H1.6 L2.5,-5 Z\" fill=\"#2b2b2b\"/></g></g>";

/// A rat running right, under an outbreak token's number.
const RAT: &str = "<path class=\"rattail\" d=\"M-6.5,6.2 Q-10.5,6.6 -9.8,2.4\"/>\
<path class=\"rat\" d=\"M-7,6.2 Q-6,1.8 -1,1.8 Q2.8,1.8 4.8,3.8 L8.6,5.2 L5,6.6 Q3,8.6 -1,8.6 Q-5.4,8.6 -7,6.2 Z\"/>\
<circle class=\"rat\" cx=\"3\" cy=\"2.4\" r=\"1.5\"/>";

/// A flea seen from the side, about 16 units long: a humped body, a small
/// head low in front and a long hind leg folded for the jump.
const FLEA: &str = "<ellipse cx=\"-0.6\" cy=\"-0.8\" rx=\"5.4\" ry=\"3.9\" transform=\"rotate(-22)\"/>\
<circle cx=\"4.9\" cy=\"0.9\" r=\"2\"/>\
<path d=\"M-3.6,1.6 L-7.6,-2.2 L-7.2,6.8 M0.2,2.8 L-0.6,6.8 M2.6,2.2 L4,6.4 M6.4,2.2 L7.8,4.2\" fill=\"none\" stroke-width=\"1.3\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>";

/// A meeple, about 24 units tall, centred on the origin.
const MEEPLE: &str = "M4.5,-8 A4.5,4.5 0 1 1 -4.5,-8 A4.5,4.5 0 1 1 4.5,-8 Z \
M-3.5,-3.2 L3.5,-3.2 C7,-3 11,-2 11.5,0.5 C11.8,2.5 9,2.8 5.5,2 L8.5,10.5 L2.5,10.5 \
L0,6.5 L-2.5,10.5 L-8.5,10.5 L-5.5,2 C-9,2.8 -11.8,2.5 -11.5,0.5 C-11,-2 -7,-3 -3.5,-3.2 Z";

/// A gingerbread man, about 22 units tall.
const GINGER: &str = "M0,-12 A4.5,4.5 0 0 1 3.6,-4.8 L9,-5 A2.5,2.5 0 0 1 9,0 L4.5,0 L7,8 \
A2.6,2.6 0 0 1 2.4,9.6 L0,4 L-2.4,9.6 A2.6,2.6 0 0 1 -7,8 L-4.5,0 L-9,0 A2.5,2.5 0 0 1 -9,-5 \
L-3.6,-4.8 A4.5,4.5 0 0 1 0,-12 Z";

/// The dragon, about 26 units long: a horned head with an open jaw.
const DRAGON: &str = "M-12,2 L-6,-6 L-2,-12 L0,-6 L6,-8 L12,-3 L6,0 L12,4 L4,5 L-2,10 L-6,6 Z";

/// A barn, about 18 units across: a house with a pitched roof, drawn on a
/// corner point of the grid.
const BARN: &str = "M-9,8 V-2 L0,-10 L9,-2 V8 Z";

/// The fairy, about 18 units across: a four-pointed star.
const FAIRY: &str = "M0,-9 L2.2,-2.2 L9,0 L2.2,2.2 L0,9 L-2.2,2.2 L-9,0 L-2.2,-2.2 Z";

/// The colour of a player: their name if it is a colour, else by seat.
pub fn player_colour(name: &str, seat: usize) -> &'static str {
    const BY_NAME: [(&str, &str); 11] = [
        ("red", "#d62828"),
        ("blue", "#1f5fd1"),
        ("green", "#1e8c34"),
        ("yellow", "#f2c91d"),
        ("black", "#262626"),
        ("grey", "#9b9b9b"),
        ("gray", "#9b9b9b"),
        ("white", "#f4f4f4"),
        ("pink", "#f07ab8"),
        ("purple", "#7f3fbf"),
        ("orange", "#f07d1a"),
    ];
    const BY_SEAT: [&str; 8] = [
        "#d62828", "#1f5fd1", "#1e8c34", "#f2c91d", "#262626", "#9b9b9b", "#f07ab8", "#7f3fbf",
    ];
    let lower = name.to_ascii_lowercase();
    BY_NAME
        .iter()
        .find(|(n, _)| lower == *n)
        .map(|(_, c)| *c)
        .unwrap_or(BY_SEAT[seat % BY_SEAT.len()])
}

fn shape_name(shape: Shape) -> &'static str {
    match shape {
        Shape::Square => "square",
        Shape::Half => "half",
        Shape::Double => "double",
    }
}

/// Opens the document: root element, style, shared definitions, table.
fn open(out: &mut String, w: f64, h: f64, px_per_unit: f64, title: &str, extra_style: &str) {
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" \
font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\">\n<title>{}</title>\n<style>{STYLE}{extra_style}</style>\n<defs>\n",
        num((w * px_per_unit).ceil()),
        num((h * px_per_unit).ceil()),
        num(w),
        num(h),
        esc(title)
    );
    for shape in [Shape::Square, Shape::Half, Shape::Double] {
        let _ = writeln!(
            out,
            "<clipPath id=\"clip-{}\"><polygon points=\"{}\"/></clipPath>",
            shape_name(shape),
            points(&geom::outline(shape))
        );
    }
    out.push_str(
        "<pattern id=\"hatch\" width=\"10\" height=\"10\" patternUnits=\"userSpaceOnUse\">\
<rect width=\"10\" height=\"10\" fill=\"#f6efe6\"/><path d=\"M0,10 L10,0\" stroke=\"#c9a48e\" stroke-width=\"2\"/></pattern>\n</defs>\n",
    );
    let _ = writeln!(
        out,
        "<rect class=\"table\" width=\"{}\" height=\"{}\"/>",
        num(w),
        num(h)
    );
}

/// Maps a point of a tile's catalog frame to the board: the tile turns
/// clockwise about the centre of its first cell, whose corner is at `origin`.
fn to_board(p: Pt, origin: Pt, rot: Rotation) -> Pt {
    let (dx, dy) = (p.x - S / 2.0, p.y - S / 2.0);
    let (rx, ry) = match rot.quarters() {
        0 => (dx, dy),
        1 => (-dy, dx),
        2 => (-dx, -dy),
        _ => (dy, -dx),
    };
    Pt::new(origin.x + S / 2.0 + rx, origin.y + S / 2.0 + ry)
}

/// Draws the flat part of a piece (fields, cities, rivers, roads).
fn piece(out: &mut String, cat: &Catalog, def: &TileDef, g: &TileGeom, origin: Pt, rot: Rotation) {
    let mut tags: Vec<&str> = cat.tag_names(def.tags);
    for f in &def.features {
        tags.extend(cat.tag_names(f.tags));
    }
    let tag_attr = if tags.is_empty() {
        String::new()
    } else {
        format!(" data-tags=\"{}\"", esc(&tags.join(" ")))
    };
    let rotate = if rot.quarters() == 0 {
        String::new()
    } else {
        format!(" rotate({} 50 50)", rot.degrees())
    };
    let _ = writeln!(
        out,
        "<g transform=\"translate({}){rotate}\" data-tile=\"{}\"{tag_attr}>",
        pt(origin),
        esc(&def.id)
    );
    let _ = writeln!(out, "<g clip-path=\"url(#clip-{})\">", shape_name(g.shape));
    // A tile with closing sides (the abbey) shows no field: paved ground
    // walled on every side, so that it reads apart from a monastery.
    // (Drawn with its own colours, so the shared style sheet, and every
    // picture of the other tiles, stays as it was.)
    if def.closing_sides {
        let _ = writeln!(
            out,
            "<polygon class=\"abbey\" fill=\"#cfc6b2\" points=\"{}\"/>\n\
<rect fill=\"none\" stroke=\"#6d604c\" stroke-width=\"4\" x=\"4\" y=\"4\" width=\"92\" height=\"92\"/>",
            points(&g.outline)
        );
    } else {
        let _ = writeln!(
            out,
            "<polygon class=\"field\" points=\"{}\"/>",
            points(&g.outline)
        );
    }
    for c in &g.cities {
        let _ = writeln!(out, "<path class=\"city\" d=\"{}\"/>", d(&c.fill));
    }
    for c in &g.cities {
        for w in &c.walls {
            let _ = writeln!(out, "<path class=\"wall\" d=\"{}\"/>", d(w));
        }
    }
    // Inner fields' meadows, with their own colours (as the abbey), so the
    // shared style sheet stays as it was.
    for m in &g.meadows {
        let _ = writeln!(
            out,
            "<ellipse class=\"field\" stroke=\"#7b4a21\" stroke-width=\"3\" cx=\"{}\" cy=\"{}\" rx=\"19\" ry=\"12\"/>",
            num(m.x),
            num(m.y)
        );
    }
    for kind in [FeatureKind::River, FeatureKind::Road] {
        let (edge, body) = if kind == FeatureKind::River {
            ("riveredge", "river")
        } else {
            ("roadedge", "road")
        };
        let lines: Vec<_> = g.lines.iter().filter(|l| l.kind == kind).collect();
        for l in &lines {
            let _ = writeln!(out, "<path class=\"{edge}\" d=\"{}\"/>", d(&l.path));
        }
        for l in &lines {
            let _ = writeln!(out, "<path class=\"{body}\" d=\"{}\"/>", d(&l.path));
        }
        if kind == FeatureKind::River {
            for p in &g.ponds {
                let _ = writeln!(
                    out,
                    "<circle class=\"pond\" cx=\"{}\" cy=\"{}\" r=\"12\"/>",
                    num(p.x),
                    num(p.y)
                );
            }
        }
    }
    out.push_str("</g>\n");
    let _ = writeln!(
        out,
        "<polygon class=\"tileedge\" points=\"{}\"/>\n</g>",
        points(&g.outline)
    );
}

/// Draws the upright things of a piece: monasteries, coats of arms, inns.
fn decos(out: &mut String, g: &TileGeom, origin: Pt, rot: Rotation) {
    for &p in &g.junctions {
        let q = to_board(p, origin, rot);
        let _ = writeln!(
            out,
            "<path class=\"house\" d=\"M{},{} l6.5,-6.5 l6.5,6.5 v7 h-13 Z\"/>",
            num(q.x - 6.5),
            num(q.y - 2.0)
        );
    }
    for deco in &g.decos {
        match *deco {
            Deco::Monastery(p) => {
                let q = to_board(p, origin, rot);
                let _ = writeln!(
                    out,
                    "<g transform=\"translate({})\"><rect class=\"mwall\" x=\"-11\" y=\"-4\" width=\"22\" height=\"14\"/>\
<path class=\"mroof\" d=\"M-14,-4 L0,-15 L14,-4 Z\"/><path class=\"mcross\" d=\"M0,-22 V-14 M-3.5,-19 H3.5\"/>\
<rect class=\"mroof\" x=\"-3\" y=\"2\" width=\"6\" height=\"8\"/></g>",
                    pt(q)
                );
            }
            Deco::Shield(p) => {
                let q = to_board(p, origin, rot);
                let _ = writeln!(
                    out,
                    "<g transform=\"translate({})\"><path class=\"shield\" d=\"M-7,-8 H7 V0 Q7,6 0,9 Q-7,6 -7,0 Z\"/>\
<path class=\"chevron\" d=\"M-5,-2 L0,3 L5,-2\"/></g>",
                    pt(q)
                );
            }
            Deco::Scenery(p, ref tag) => {
                let q = to_board(p, origin, rot);
                let body = match tag.as_str() {
                    "garden" => "<path d=\"M-5,2 V7 M5,3 V8\" stroke=\"#4a3b2c\" stroke-width=\"2\"/>\
<circle cx=\"-5\" cy=\"-2\" r=\"6\" class=\"tree\"/><circle cx=\"5\" cy=\"-1\" r=\"5.5\" class=\"tree\"/>"
                        .to_string(),
                    "farmhouse" | "houses" | "donkey-stable" => "<rect class=\"mwall\" x=\"-8\" y=\"-2\" width=\"16\" height=\"10\"/>\
<path class=\"sroof\" d=\"M-10,-2 L-4,-9 L4,-9 L10,-2 Z\"/>"
                        .to_string(),
                    "water-tower" => "<rect class=\"mwall\" x=\"-4\" y=\"-8\" width=\"8\" height=\"17\"/>\
<path class=\"sroof\" d=\"M-6,-8 L0,-14 L6,-8 Z\"/>"
                        .to_string(),
                    "pigherd" | "pig-herd" | "pig" => "<ellipse class=\"pig\" cx=\"-1\" cy=\"1\" rx=\"8\" ry=\"5.5\"/>\
<circle class=\"pig\" cx=\"8\" cy=\"-2\" r=\"4\"/><path d=\"M-5,6 V9 M3,6 V9\" stroke=\"#7a3f52\" stroke-width=\"1.8\"/>"
                        .to_string(),
                    "volcano" => "<path d=\"M-11,7 L-3,-8 L3,-8 L11,7 Z\" fill=\"#6b4a32\" stroke=\"#3a2a1e\" stroke-width=\"1.5\"/>\
<path d=\"M-3,-8 Q0,-16 3,-8 Z\" fill=\"#e0452b\"/>"
                        .to_string(),
                    "gingerbread" => "<circle r=\"7.5\" class=\"ginger\"/>\
<path class=\"icing\" d=\"M-3,-2 h0.1 M3,-2 h0.1 M-3.5,2.5 Q0,5 3.5,2.5\"/>"
                        .to_string(),
                    "robbers" => "<circle cx=\"0\" cy=\"-6\" r=\"4\" fill=\"#3a3a3a\"/>\
<path d=\"M-7,8 L0,-3 L7,8 Z\" fill=\"#3a3a3a\" stroke=\"#111\" stroke-width=\"1\"/>"
                        .to_string(),
                    "vineyard" => "<path d=\"M0,-10 V-5 M0,-8 Q5,-12 8,-8\" fill=\"none\" stroke=\"#3d6b22\" stroke-width=\"1.6\"/>\
<g fill=\"#6a2c8c\" stroke=\"#3a1450\" stroke-width=\"0.8\"><circle cx=\"-4\" cy=\"-3\" r=\"3\"/>\
<circle cx=\"2\" cy=\"-3\" r=\"3\"/><circle cx=\"-1\" cy=\"2\" r=\"3\"/><circle cx=\"5\" cy=\"2\" r=\"3\"/>\
<circle cx=\"2\" cy=\"7\" r=\"3\"/></g>"
                        .to_string(),
                    "sheep" => "<path d=\"M-5,4 V9 M4,4 V9\" stroke=\"#2b2b2b\" stroke-width=\"1.8\"/>\
<ellipse cx=\"-1\" cy=\"0\" rx=\"9\" ry=\"6\" fill=\"#fbfaf4\" stroke=\"#5a5a5a\" stroke-width=\"1.2\"/>\
<ellipse cx=\"9\" cy=\"-3\" rx=\"3.5\" ry=\"3\" fill=\"#2b2b2b\"/>"
                        .to_string(),
                    "hill" => "<path d=\"M-13,7 Q-6,-10 2,-6 Q9,-9 13,7 Z\" fill=\"#6f9a3c\" stroke=\"#3f5c1e\" stroke-width=\"1.4\"/>\
<path d=\"M-4,-2 Q1,-5 5,-2\" fill=\"none\" stroke=\"#a9c97a\" stroke-width=\"1.4\"/>"
                        .to_string(),
                    "plague" => PLAGUE_DOCTOR.to_string(),
                    // Traders & Builders' goods symbols, on their cities.
                    "wine" => WINE.to_string(),
                    "grain" => GRAIN.to_string(),
                    "cloth" => CLOTH.to_string(),
                    // Inns & Cathedrals: a two-towered church in its city.
                    "cathedral" => "<rect class=\"mwall\" x=\"-8\" y=\"-4\" width=\"16\" height=\"13\"/>\
<rect class=\"mwall\" x=\"-13\" y=\"-11\" width=\"6\" height=\"20\"/><rect class=\"mwall\" x=\"7\" y=\"-11\" width=\"6\" height=\"20\"/>\
<path class=\"mroof\" d=\"M-14,-11 L-10,-18 L-6,-11 Z M6,-11 L10,-18 L14,-11 Z M-8,-4 L0,-10 L8,-4 Z\"/>\
<path class=\"mcross\" d=\"M0,-16 V-10 M-2.5,-13.5 H2.5\"/>"
                        .to_string(),
                    "crop-circle" => "<circle r=\"10\" fill=\"#e9dc8e\" stroke=\"#b9a24a\" stroke-width=\"1.2\"/>\
<circle r=\"6\" fill=\"none\" stroke=\"#b9a24a\" stroke-width=\"1.2\"/><circle r=\"2\" fill=\"#b9a24a\"/>"
                        .to_string(),
                    other => {
                        let initial: String = other
                            .chars()
                            .find(|c| c.is_alphanumeric())
                            .map(|c| c.to_uppercase().collect())
                            .unwrap_or_else(|| "?".into());
                        format!(
                            "<circle r=\"8\" class=\"badge\"/><text class=\"badgetext\" y=\"4\">{}</text>",
                            esc(&initial)
                        )
                    }
                };
                let title = match tag.as_str() {
                    "plague" => "plague source (the plague doctor)",
                    "wine" => "trade goods: wine",
                    "grain" => "trade goods: grain",
                    "cloth" => "trade goods: cloth",
                    other => other,
                };
                let _ = writeln!(
                    out,
                    "<g transform=\"translate({})\" data-tag=\"{}\"><title>{}</title>{body}</g>",
                    pt(q),
                    esc(tag),
                    esc(title)
                );
            }
            Deco::Inn(p) => {
                let q = to_board(p, origin, rot);
                let _ = writeln!(
                    out,
                    "<g transform=\"translate({})\"><rect class=\"mwall\" x=\"-7\" y=\"-2\" width=\"14\" height=\"9\"/>\
<path class=\"iroof\" d=\"M-9,-2 L0,-9 L9,-2 Z\"/></g>",
                    pt(q)
                );
            }
        }
    }
}

/// Traders & Builders' wine symbol: a barrel on its side, staves and hoops.
const WINE: &str =
    "<ellipse rx=\"10\" ry=\"7\" fill=\"#7b2d52\" stroke=\"#3f1228\" stroke-width=\"1.2\"/>\
<path d=\"M-5,-6.5 V6.5 M5,-6.5 V6.5\" stroke=\"#d8b36a\" stroke-width=\"1.6\"/>\
<ellipse cx=\"-10\" rx=\"1.8\" ry=\"4\" fill=\"#3f1228\"/>";
/// Traders & Builders' grain symbol: a sheaf of three ears, bound.
const GRAIN: &str = "<g fill=\"#e2b83c\" stroke=\"#8a6a14\" stroke-width=\"1\">\
<ellipse cx=\"-5\" cy=\"-5\" rx=\"2.6\" ry=\"5\" transform=\"rotate(-20 -5 -5)\"/>\
<ellipse cx=\"0\" cy=\"-6\" rx=\"2.6\" ry=\"5.5\"/>\
<ellipse cx=\"5\" cy=\"-5\" rx=\"2.6\" ry=\"5\" transform=\"rotate(20 5 -5)\"/></g>\
<path d=\"M-3,0 L-1,10 M0,0 V10 M3,0 L1,10\" stroke=\"#8a6a14\" stroke-width=\"1.4\"/>\
<path d=\"M-3,4 H3\" stroke=\"#5a3a10\" stroke-width=\"2\"/>";
/// Traders & Builders' cloth symbol: a bolt of blue cloth, its end unrolled.
const CLOTH: &str =
    "<path d=\"M-2,-7 H10 V7 H-2 Z\" fill=\"#3f6fb5\" stroke=\"#1d3b66\" stroke-width=\"1.2\"/>\
<ellipse cx=\"-4\" rx=\"5\" ry=\"7\" fill=\"#5d8ad0\" stroke=\"#1d3b66\" stroke-width=\"1.2\"/>\
<ellipse cx=\"-4\" rx=\"1.6\" ry=\"2.4\" fill=\"#1d3b66\"/>";

/// Traders & Builders' builder: a tall figure with a round head and a
/// wide base, standing.
const BUILDER: &str =
    "M-3,-13 A4,4 0 1,1 3,-13 L2,-9 L6,-7 L5,2 L8,11 L-8,11 L-5,2 L-6,-7 L-2,-9 Z";
/// Traders & Builders' pig: a round body with a snout, legs and ears.
const PIG: &str = "M-11,-3 A9,6 0 0,1 7,-6 L9,-10 L10,-5 A4,3 0 0,1 13,0 L10,2 A9,6 0 0,1 5,5 L5,9 L2,9 L2,6 L-5,6 L-5,9 L-8,9 L-8,5 A9,6 0 0,1 -11,-3 Z";

/// Abbey & Mayor's mayor: a meeple with a round belly and a tall hat.
const MAYOR: &str = "M-4,-17 H4 V-12 A4,4 0 0,1 5,-8 L9,-5 A9,9 0 0,1 9,6 L10,11 L-10,11 L-9,6 A9,9 0 0,1 -9,-5 L-5,-8 A4,4 0 0,1 -4,-12 Z";
/// Abbey & Mayor's wagon: a cart box on two wheels with a shaft.
const WAGON: &str = "M-11,-7 H9 V3 H-11 Z M13,-3 H9 V-1 H13 Z M-6,3 A4,4 0 1,0 -6,11 A4,4 0 1,0 -6,3 Z M5,3 A4,4 0 1,0 5,11 A4,4 0 1,0 5,3 Z";

/// A figure: a follower is a meeple in the player's colour, lying down for
/// a farmer, the large follower (Inns & Cathedrals) half as big again; the
/// builder and the pig (Traders & Builders) have shapes of their own.
fn follower(out: &mut String, at: Pt, colour: &str, lying: bool, player: &str, figure: Figure) {
    let turn = if lying && figure.is_follower() {
        " rotate(90)"
    } else {
        ""
    };
    let (scale, big, shape) = match figure {
        Figure::Normal => ("1.1", "", MEEPLE),
        Figure::Big => ("1.65", " data-figure=\"big\"", MEEPLE),
        Figure::Builder => ("1.1", " data-figure=\"builder\"", BUILDER),
        Figure::Pig => ("1.1", " data-figure=\"pig\"", PIG),
        Figure::Mayor => ("1.1", " data-figure=\"mayor\"", MAYOR),
        Figure::Wagon => ("1.1", " data-figure=\"wagon\"", WAGON),
    };
    let _ = writeln!(
        out,
        "<g transform=\"translate({}){turn} scale({scale})\" data-player=\"{}\"{big}><path class=\"halo\" d=\"{shape}\"/>\
<path class=\"meeple\" fill=\"{colour}\" d=\"{shape}\"/></g>",
        pt(at),
        esc(player)
    );
}

/// An outbreak token: red with a rat while active, green (a field) once
/// eradicated, with its number.
fn outbreak_token(out: &mut String, at: Pt, number: usize, active: bool) {
    let (side, body, title) = if active {
        ("active", RAT, "active")
    } else {
        (
            "eradicated",
            "<path class=\"tuft\" d=\"M-8.7,5.7 L-6.5,9.5 L-4.3,5.7 M-6.5,9.5 V4.7 M-2.2,7.2 L0,11 L2.2,7.2 M0,11 V6.2 M4.3,5.7 L6.5,9.5 L8.7,5.7 M6.5,9.5 V4.7\"/>",
            "eradicated",
        )
    };
    let num_y = if active { "-1" } else { "3" };
    let _ = writeln!(
        out,
        "<g transform=\"translate({})\" class=\"{side}\" data-outbreak=\"{number}\" data-side=\"{side}\">\
<title>outbreak {number} ({title})</title><circle class=\"halo\" r=\"14\"/>\
<circle class=\"outbreak {side}\" r=\"14\"/>{body}<text class=\"obnum\" y=\"{num_y}\">{number}</text></g>",
        pt(at)
    );
}

/// A flea token: red while active, pink while latent.
fn flea_token(out: &mut String, at: Pt, outbreak: Option<u8>) {
    let (side, title) = match outbreak {
        Some(i) => (
            "active",
            format!("flea, active (outbreak {})", i as usize + 1),
        ),
        None => ("latent", "flea, latent".to_string()),
    };
    let _ = writeln!(
        out,
        "<g transform=\"translate({})\" data-flea=\"{side}\"><title>{title}</title>\
<circle class=\"halo\" r=\"11\"/><circle class=\"flea {side}\" r=\"11\"/><g class=\"bug {side}\">{FLEA}</g></g>",
        pt(at)
    );
}

/// The Plague's tokens, each on its piece, clear of the followers and
/// figures standing there (`upright`: piece and place on the board).
fn plague_tokens(
    out: &mut String,
    plague: &PlagueScene,
    pieces: &[Piece],
    cat: &Catalog,
    geoms: &mut Geoms,
    upright: &[(u16, Pt)],
    origin_of: &impl Fn(Pos) -> Pt,
) {
    let spot = |geoms: &mut Geoms, pi: u16| free_spot(pieces, cat, geoms, upright, origin_of, pi);
    for (i, o) in plague.outbreaks.iter().enumerate() {
        if let Some(at) = spot(geoms, o.piece) {
            outbreak_token(out, at, i + 1, o.active);
        }
    }
    for f in &plague.fleas {
        if let Some(at) = spot(geoms, f.piece) {
            flea_token(out, at, f.region);
        }
    }
}

/// The token spot of piece `pi` farthest from the figures standing on it
/// (a flea, an outbreak token, a tower).
fn free_spot(
    pieces: &[Piece],
    cat: &Catalog,
    geoms: &mut Geoms,
    upright: &[(u16, Pt)],
    origin_of: &impl Fn(Pos) -> Pt,
    pi: u16,
) -> Option<Pt> {
    let p = pieces.get(pi as usize)?;
    let g = geoms.get(cat, p.tile);
    let here: Vec<Pt> = upright
        .iter()
        .filter(|(q, _)| *q == pi)
        .map(|&(_, at)| at)
        .collect();
    let mut found: Option<(f64, Pt)> = None;
    for &(local, base) in &g.token_spots {
        let at = to_board(local, origin_of(p.pos), p.rot);
        // A follower is about 26 units across: 40 units apart, they
        // do not touch.
        let far = here.iter().map(|q| at.dist(*q)).fold(40.0, f64::min);
        let score = base + 2.0 * far;
        if found.is_none_or(|(s, _)| score > s) {
            found = Some((score, at));
        }
    }
    found.map(|(_, at)| at)
}

/// The Tower: a foundation (a ring) or a tower of `height` floors stacked
/// on the tile at `at`, its height written beside it; returns where a
/// follower on top stands.
fn tower_token(out: &mut String, at: Pt, height: u8) -> Pt {
    let _ = writeln!(
        out,
        "<g data-tower=\"{height}\"><title>Tower, {height} floor{}</title>",
        if height == 1 { "" } else { "s" }
    );
    let _ = writeln!(
        out,
        "<circle cx=\"{}\" cy=\"{}\" r=\"8\" fill=\"#d7ccc8\" stroke=\"#4e342e\" stroke-width=\"1.5\"/>",
        num(at.x),
        num(at.y)
    );
    // Floors drawn 4 units apart, at most 8 drawn: the number says the rest.
    for k in 0..height.min(8) {
        let y = at.y - 4.0 * f64::from(k + 1);
        let _ = writeln!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"4\" fill=\"#bcaaa4\" stroke=\"#4e342e\" stroke-width=\"1\"/>",
            num(at.x - 6.0),
            num(y)
        );
    }
    if height > 0 {
        let _ = writeln!(
            out,
            "<text class=\"legend\" x=\"{}\" y=\"{}\" font-size=\"11\">{height}</text>",
            num(at.x + 9.0),
            num(at.y + 4.0)
        );
    }
    out.push_str("</g>\n");
    Pt::new(at.x, at.y - 4.0 * f64::from(height.min(8)) - 18.0)
}

/// The legend's line about the Plague: fleas in the supply, outbreaks.
fn plague_note(p: &PlagueScene) -> String {
    let fleas = match p.supply {
        1 => "1 flea in the supply".to_string(),
        n => format!("{n} fleas in the supply"),
    };
    let active = p.outbreaks.iter().filter(|o| o.active).count();
    let gone = p.outbreaks.len() - active;
    let outbreaks = match (active, gone) {
        (0, 0) => "no outbreak yet".to_string(),
        (a, 0) => format!(
            "{a} {} active",
            if a == 1 { "outbreak" } else { "outbreaks" }
        ),
        (a, e) => format!(
            "{a} {} active, {e} eradicated",
            if a == 1 { "outbreak" } else { "outbreaks" }
        ),
    };
    format!("Plague: {fleas}, {outbreaks}")
}

/// The triangle of a cell with its right angle at `corner`.
fn half_triangle(corner: Corner, origin: Pt) -> Vec<Pt> {
    let c = |k: u8| {
        let (x, y) = match Corner::from_index(k) {
            Corner::NW => (0.0, 0.0),
            Corner::NE => (S, 0.0),
            Corner::SE => (S, S),
            Corner::SW => (0.0, S),
        };
        Pt::new(origin.x + x, origin.y + y)
    };
    let i = corner as u8;
    vec![c(i), c(i + 1), c(i + 3)]
}

fn gap(out: &mut String, corner: Corner, origin: Pt) {
    let _ = writeln!(
        out,
        "<polygon class=\"gap\" fill=\"url(#hatch)\" points=\"{}\"/>",
        points(&half_triangle(corner, origin))
    );
}

/// Geometry of each tile kind, computed once per drawing.
#[derive(Default)]
struct Geoms(BTreeMap<TileIdx, TileGeom>);

impl Geoms {
    fn get(&mut self, cat: &Catalog, t: TileIdx) -> &TileGeom {
        self.0
            .entry(t)
            .or_insert_with(|| geom::tile_geom(cat, cat.tile(t)))
    }
}

/// Cells a piece covers.
fn cells_of(def: &TileDef, pos: Pos, rot: Rotation) -> Vec<Pos> {
    def.oriented(rot)
        .cells
        .iter()
        .map(|&(dx, dy)| pos.offset(dx, dy))
        .collect()
}

/// The fill and text colours of a chip.
fn chip_colours(c: Colour) -> (&'static str, &'static str) {
    match c {
        Colour::Purple => ("#8e44ad", "#ffffff"),
        Colour::Blue => ("#7cc8ef", "#10324a"),
        Colour::Orange => ("#f39a2e", "#3a2208"),
    }
}

/// A wagon wheel of radius `r` centred on (`x`, `y`): the Chumak symbol.
fn wheel(out: &mut String, x: f64, y: f64, r: f64) {
    let k = r * 0.866;
    let h = r * 0.5;
    let _ = write!(
        out,
        "<g transform=\"translate({},{})\"><circle class=\"wheel\" r=\"{}\"/>\
<path class=\"spoke\" d=\"M0,{} V{} M{},{} L{},{} M{},{} L{},{}\"/><circle class=\"hub\" r=\"{}\"/></g>",
        num(x),
        num(y),
        num(r),
        num(-r),
        num(r),
        num(-k),
        num(-h),
        num(k),
        num(h),
        num(-k),
        num(h),
        num(k),
        num(-h),
        num(r * 0.28)
    );
}

/// A map's outline as a closed path (empty for none): its corners are in
/// tenths of a square from cell (0, 0)'s top-left corner.
fn outline_path(m: &MapScene, origin_of: &impl Fn(Pos) -> Pt) -> String {
    let o = origin_of(Pos::new(0, 0));
    let mut d = String::new();
    for (i, &(x, y)) in m.outline.iter().enumerate() {
        let p = Pt::new(o.x + f64::from(x) * S / 10.0, o.y + f64::from(y) * S / 10.0);
        let _ = write!(d, "{}{} ", if i == 0 { 'M' } else { 'L' }, pt(p));
    }
    if !d.is_empty() {
        d.push('Z');
    }
    d
}

/// The cells a map's outline reaches (so that the picture holds it).
fn outline_cells(m: &MapScene) -> impl Iterator<Item = Pos> + '_ {
    m.outline
        .iter()
        .map(|&(x, y)| Pos::new(x.div_euclid(10), y.div_euclid(10)))
}

/// The squares of a map under the tiles, on the land of its outline.
fn map_base(out: &mut String, m: &MapScene, origin_of: &impl Fn(Pos) -> Pt) {
    let towns: BTreeSet<Pos> = m.chumak.iter().map(|c| c.pos).collect();
    let mut plain = String::new();
    let mut chumak = String::new();
    for &p in &m.cells {
        let target = if towns.contains(&p) {
            &mut chumak
        } else {
            &mut plain
        };
        if !target.is_empty() {
            target.push(' ');
        }
        let _ = write!(
            target,
            "M{} h{s} v{s} h-{s} Z",
            pt(origin_of(p)),
            s = num(S)
        );
    }
    let _ = writeln!(
        out,
        "<g data-map=\"{}\"><title>{}</title>",
        esc(&m.name),
        esc(&m.title)
    );
    let land = outline_path(m, origin_of);
    if !land.is_empty() {
        let _ = writeln!(out, "<path class=\"mapland\" d=\"{land}\"/>");
    }
    if !plain.is_empty() {
        let _ = writeln!(out, "<path class=\"mapsq\" d=\"{plain}\"/>");
    }
    if !chumak.is_empty() {
        let _ = writeln!(out, "<path class=\"mapsq chumaksq\" d=\"{chumak}\"/>");
    }
    out.push_str("</g>\n");
}

/// The border of a map: its outline, if it has one, over a thin dashed
/// line along every side of a square with no square beyond it (where the
/// tiles may go); without an outline that line is the border.
fn map_edge(out: &mut String, m: &MapScene, origin_of: &impl Fn(Pos) -> Pt) {
    let cells: BTreeSet<Pos> = m.cells.iter().copied().collect();
    let mut edge = String::new();
    for &p in &cells {
        let o = origin_of(p);
        let corners = [
            (o.x, o.y),
            (o.x + S, o.y),
            (o.x + S, o.y + S),
            (o.x, o.y + S),
        ];
        let beyond = [(0, -1), (1, 0), (0, 1), (-1, 0)];
        for (i, &(dx, dy)) in beyond.iter().enumerate() {
            if cells.contains(&p.offset(dx, dy)) {
                continue;
            }
            let (a, b) = (corners[i], corners[(i + 1) % 4]);
            if !edge.is_empty() {
                edge.push(' ');
            }
            let _ = write!(
                edge,
                "M{},{} L{},{}",
                num(a.0),
                num(a.1),
                num(b.0),
                num(b.1)
            );
        }
    }
    let border = outline_path(m, origin_of);
    let class = if border.is_empty() {
        "mapedge"
    } else {
        "mapsqedge"
    };
    if !edge.is_empty() {
        let _ = writeln!(out, "<path class=\"{class}\" d=\"{edge}\"/>");
    }
    if !border.is_empty() {
        let _ = writeln!(out, "<path class=\"mapborder\" d=\"{border}\"/>");
    }
}

/// Where the chips of one chip space lie, around the space's centre.
fn chip_offsets(n: usize) -> Vec<(f64, f64)> {
    let q = 7.5;
    let mut v = match n {
        0 => vec![],
        1 => vec![(0.0, 0.0)],
        2 => vec![(-q, 0.0), (q, 0.0)],
        3 => vec![(-q, -q), (q, -q), (0.0, q)],
        _ => vec![(-q, -q), (q, -q), (-q, q), (q, q)],
    };
    // More than four (never in a real game): piled on the last.
    for k in 4..n {
        v.push((q + 2.0 * (k - 3) as f64, q - 2.0 * (k - 3) as f64));
    }
    v
}

fn chip_text(chips: &[Chip]) -> String {
    chips
        .iter()
        .map(|c| format!("{} {}", c.colour, c.value))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The chip spaces of an unbuilt Chumak square at `o`, with their chips.
fn chip_spaces(out: &mut String, sq: &ChumakSquare, o: Pt) {
    for k in 0..SPACES {
        let cx = o.x + 33.0 + 34.0 * (k % 2) as f64;
        let cy = o.y + 48.0 + 33.0 * (k / 2) as f64;
        let _ = writeln!(
            out,
            "<rect class=\"chipspace\" x=\"{}\" y=\"{}\" width=\"31\" height=\"31\" rx=\"5\"/>",
            num(cx - 15.5),
            num(cy - 15.5)
        );
        let Some(chips) = sq.spaces.get(k) else {
            continue;
        };
        if chips.is_empty() {
            continue;
        }
        let _ = write!(
            out,
            "<g data-chips=\"{}\"><title>{}</title>",
            esc(&chips
                .iter()
                .map(|c| c.label())
                .collect::<Vec<_>>()
                .join(" ")),
            esc(&chip_text(chips))
        );
        for (c, (dx, dy)) in chips.iter().zip(chip_offsets(chips.len())) {
            let (fill, ink) = chip_colours(c.colour);
            let _ = write!(
                out,
                "<circle class=\"chip\" fill=\"{fill}\" cx=\"{}\" cy=\"{}\" r=\"7.5\"/>\
<text class=\"chipval\" fill=\"{ink}\" x=\"{}\" y=\"{}\">{}</text>",
                num(cx + dx),
                num(cy + dy),
                num(cx + dx),
                num(cy + dy + 3.6),
                c.value
            );
        }
        out.push_str("</g>\n");
    }
}

/// A town name that fits `room` units at about `per_char` units a letter.
fn fitted(name: &str, per_char: f64, room: f64) -> String {
    if name.chars().count() as f64 * per_char > room {
        format!(
            " textLength=\"{}\" lengthAdjust=\"spacingAndGlyphs\"",
            num(room)
        )
    } else {
        String::new()
    }
}

/// Whether a Chumak square has a tile on it.
fn is_built(sq: &ChumakSquare, covered: &BTreeSet<Pos>) -> bool {
    sq.built || covered.contains(&sq.pos)
}

/// Start flags and unbuilt Chumak squares (wheel, town and chip spaces with
/// their chips), over the tiles and under the followers.
fn map_marks(
    out: &mut String,
    m: &MapScene,
    covered: &BTreeSet<Pos>,
    origin_of: &impl Fn(Pos) -> Pt,
) {
    for (i, &p) in m.starts.iter().enumerate() {
        let o = origin_of(p);
        let _ = writeln!(
            out,
            "<g transform=\"translate({},{})\" data-start=\"{n}\"><title>start space {n}</title>\
<path class=\"polehalo\" d=\"M0,0 V26\"/><path class=\"pole\" d=\"M0,0 V26\"/>\
<path class=\"flag\" d=\"M0,-1 H19 L15,6 L19,13 H0 Z\"/><text class=\"flagnum\" x=\"8.5\" y=\"9.6\">{n}</text></g>",
            num(o.x + 10.0),
            num(o.y + 8.0),
            n = i + 1
        );
    }
    for sq in m.chumak.iter().filter(|sq| !is_built(sq, covered)) {
        let o = origin_of(sq.pos);
        let lying: Vec<Chip> = sq.spaces.iter().flatten().copied().collect();
        let state = if lying.is_empty() {
            "no chips".to_string()
        } else {
            format!("chips {}", chip_text(&lying))
        };
        let _ = writeln!(
            out,
            "<g data-chumak=\"{}\" data-built=\"false\"><title>Chumak square {}: {}</title>",
            esc(&sq.name),
            esc(&sq.name),
            esc(&state)
        );
        wheel(out, o.x + 17.0, o.y + 17.0, 11.0);
        let _ = writeln!(
            out,
            "\n<text class=\"town\" x=\"{}\" y=\"{}\"{}>{}</text>",
            num(o.x + 32.0),
            num(o.y + 22.0),
            fitted(&sq.name, 7.8, S - 36.0),
            esc(&sq.name)
        );
        chip_spaces(out, sq, o);
        out.push_str("</g>\n");
    }
}

/// Built Chumak squares: a label with a wheel and the town on the bottom
/// edge of the tile, over the followers.
fn town_labels(
    out: &mut String,
    m: &MapScene,
    covered: &BTreeSet<Pos>,
    origin_of: &impl Fn(Pos) -> Pt,
) {
    for sq in m.chumak.iter().filter(|sq| is_built(sq, covered)) {
        let o = origin_of(sq.pos);
        let text_w = (sq.name.chars().count() as f64 * 7.8).min(S - 28.0);
        let w = text_w + 26.0;
        let x0 = o.x + (S - w) / 2.0;
        let y0 = o.y + S - 12.0;
        let _ = write!(
            out,
            "<g data-chumak=\"{}\" data-built=\"true\"><title>Chumak square {} (built)</title>\
<rect class=\"townpill\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"16\" rx=\"8\"/>",
            esc(&sq.name),
            esc(&sq.name),
            num(x0),
            num(y0),
            num(w)
        );
        wheel(out, x0 + 10.0, y0 + 8.0, 5.8);
        let _ = writeln!(
            out,
            "<text class=\"townsmall\" x=\"{}\" y=\"{}\"{}>{}</text></g>",
            num(x0 + 19.0),
            num(y0 + 12.0),
            fitted(&sq.name, 7.8, text_w),
            esc(&sq.name)
        );
    }
}

/// The cells where the drawn tile of a game may go (none unless a tile is
/// to be placed).
pub fn legal_cells(game: &Game) -> Vec<Pos> {
    let cat = game.catalog();
    let mut legal: BTreeSet<Pos> = BTreeSet::new();
    // The tile step, and the steps that offer a tile held (the builder
    // step, the final abbey round).
    if !matches!(game.phase(), Phase::Follower | Phase::Over) {
        for a in game.legal_actions() {
            if let Action::Place { tile, pos, rot } = a {
                legal.extend(cells_of(cat.tile(tile), pos, rot));
            }
        }
    }
    legal.into_iter().collect()
}

/// A whole board.
pub fn board(scene: &Scene, opts: &BoardOptions) -> String {
    let cat = scene.catalog;
    let pieces = scene.pieces;
    let mut cells: BTreeSet<Pos> = BTreeSet::new();
    for p in pieces {
        cells.extend(cells_of(cat.tile(p.tile), p.pos, p.rot));
    }
    let legal: BTreeSet<Pos> = if opts.legal {
        scene.legal.iter().copied().collect()
    } else {
        BTreeSet::new()
    };
    let map = scene.map.as_ref();
    let map_cells: Vec<Pos> = map
        .map(|m| m.cells.iter().copied().chain(outline_cells(m)).collect())
        .unwrap_or_default();
    let all: Vec<Pos> = cells
        .iter()
        .chain(legal.iter())
        .chain(map_cells.iter())
        .copied()
        .collect();
    let minx = all.iter().map(|p| p.x).min().unwrap_or(0);
    let maxx = all.iter().map(|p| p.x).max().unwrap_or(0);
    let miny = all.iter().map(|p| p.y).min().unwrap_or(0);
    let maxy = all.iter().map(|p| p.y).max().unwrap_or(0);
    let margin = 24.0;
    let label_room = if opts.grid { 26.0 } else { 0.0 };
    let ox = margin + label_room;
    let oy = margin + label_room;
    let ncols = (maxx - minx + 1) as f64;
    let nrows = (maxy - miny + 1) as f64;
    let names: Vec<&str> = scene.players.iter().map(|p| p.name.as_str()).collect();
    // Hands of chips or halves, and goods tokens: their numbers follow the
    // followers left.
    let hands = scene
        .players
        .iter()
        .any(|p| p.chips.is_some() || p.halves.is_some() || p.goods.is_some());
    let col_w = if hands { 340.0 } else { 250.0 };
    let mut notes: Vec<String> = Vec::new();
    if let Some(m) = map {
        notes.push(match m.supply {
            Some(1) => format!("{}: 1 chip in the supply", m.title),
            Some(n) => format!("{}: {n} chips in the supply", m.title),
            None => m.title.clone(),
        });
    }
    if let Some(p) = &scene.plague {
        notes.push(plague_note(p));
    }
    let mut w = ox + ncols * S + margin;
    if opts.legend {
        w = w.max(2.0 * margin + col_w * names.len().clamp(1, 3) as f64);
        // Room for the longest note, at about 10.5 pixels a letter.
        let longest = notes.iter().map(|n| n.chars().count()).max().unwrap_or(0);
        w = w.max(2.0 * margin + longest as f64 * 10.5);
    }
    let per_row = (((w - 2.0 * margin) / col_w).floor() as usize).max(1);
    let legend_rows = names.len().div_ceil(per_row);
    let legend_h = if opts.legend {
        let title = if opts.title.is_some() { 30.0 } else { 0.0 };
        title + legend_rows as f64 * 34.0 + notes.len() as f64 * 28.0 + 10.0
    } else {
        0.0
    };
    let h = oy + nrows * S + margin + legend_h;
    let origin_of = |p: Pos| Pt::new(ox + (p.x - minx) as f64 * S, oy + (p.y - miny) as f64 * S);
    let mut out = String::new();
    let title = opts.title.clone().unwrap_or_else(|| "Bastide board".into());
    let mut extra_style = String::new();
    if map.is_some() {
        extra_style.push_str(MAP_STYLE);
    }
    if scene.plague.is_some() {
        extra_style.push_str(PLAGUE_STYLE);
    }
    open(&mut out, w, h, opts.px_per_cell / S, &title, &extra_style);
    if let Some(m) = map {
        map_base(&mut out, m, &origin_of);
    }
    if opts.grid {
        out.push_str("<g class=\"grid\">\n");
        for i in 0..=(maxx - minx + 1) {
            let x = ox + i as f64 * S;
            let _ = writeln!(
                out,
                "<line class=\"gridline\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
                num(x),
                num(oy),
                num(x),
                num(oy + nrows * S)
            );
        }
        for j in 0..=(maxy - miny + 1) {
            let y = oy + j as f64 * S;
            let _ = writeln!(
                out,
                "<line class=\"gridline\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
                num(ox),
                num(y),
                num(ox + ncols * S),
                num(y)
            );
        }
        out.push_str("</g>\n");
    }
    // The map's border goes over the grid lines.
    if let Some(m) = map {
        map_edge(&mut out, m, &origin_of);
    }
    let mut geoms = Geoms::default();
    for p in pieces {
        let def = cat.tile(p.tile);
        let g = geoms.get(cat, p.tile);
        piece(&mut out, cat, def, g, origin_of(p.pos), p.rot);
    }
    // Cells holding one half: the empty triangle.
    let mut halves: BTreeMap<Pos, Vec<Corner>> = BTreeMap::new();
    for p in pieces {
        if let Some(c) = p.corner {
            halves.entry(p.pos).or_default().push(c);
        } else if cat.tile(p.tile).shape == Shape::Half {
            halves
                .entry(p.pos)
                .or_default()
                .push(Corner::of_half(p.rot));
        }
    }
    for (pos, cs) in &halves {
        if cs.len() == 1 {
            gap(&mut out, cs[0].opposite(), origin_of(*pos));
        }
    }
    for pos in &legal {
        let o = origin_of(*pos);
        let _ = writeln!(
            out,
            "<rect class=\"legal\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>",
            num(o.x + 3.0),
            num(o.y + 3.0),
            num(S - 6.0),
            num(S - 6.0)
        );
    }
    // Outlines of whole pieces: the highlighted feature's, then the last.
    let mut outline = |out: &mut String, piece: &Piece, class: &str| {
        let g = geoms.get(cat, piece.tile);
        let o = origin_of(piece.pos);
        let ring: Vec<Pt> = g
            .outline
            .iter()
            .map(|&p| to_board(p, o, piece.rot))
            .collect();
        let _ = writeln!(
            out,
            "<polygon class=\"{class}\" points=\"{}\"/>",
            points(&ring)
        );
    };
    for piece in scene
        .highlight
        .iter()
        .filter_map(|i| pieces.get(*i as usize))
    {
        outline(&mut out, piece, "highlight");
    }
    if opts.mark_last {
        if let Some(last) = scene.last.and_then(|i| pieces.get(i as usize)) {
            outline(&mut out, last, "last");
        }
    }
    if let Some(m) = map {
        map_marks(&mut out, m, &cells, &origin_of);
    }
    for p in pieces {
        let g = geoms.get(cat, p.tile);
        decos(&mut out, g, origin_of(p.pos), p.rot);
    }
    // Where the followers and figures stand, each with its piece.
    let mut standing: Vec<(Pt, &str, bool, &str, Figure)> = Vec::new();
    let mut upright: Vec<(u16, Pt)> = Vec::new();
    let mut seen: BTreeMap<(u16, u8), usize> = BTreeMap::new();
    for f in scene.followers {
        let Some(p) = pieces.get(f.piece as usize) else {
            continue;
        };
        let g = geoms.get(cat, p.tile);
        let fi = f.feature as usize;
        let (Some(&local), lying) = (g.anchors.get(fi), g.lying.get(fi).copied().unwrap_or(false))
        else {
            continue;
        };
        let k = seen.entry((f.piece, f.feature)).or_insert(0);
        let shift = *k as f64 * 9.0;
        *k += 1;
        let at = to_board(local, origin_of(p.pos), p.rot);
        // A monk stands by the door, leaving the building visible.
        let monk = cat
            .tile(p.tile)
            .features
            .get(fi)
            .is_some_and(|f| f.kind == FeatureKind::Monastery);
        let (dx, dy) = if monk { (21.0, 8.0) } else { (0.0, 0.0) };
        let at = Pt::new(at.x + dx + shift, at.y + dy + shift);
        let seat = f.player.index();
        let name = names.get(seat).copied().unwrap_or("?");
        standing.push((at, player_colour(name, seat), lying, name, f.figure));
        upright.push((f.piece, at));
    }
    let figures: Vec<(FigureKind, Pt)> = scene
        .figures
        .iter()
        .filter_map(|fig| {
            let p = pieces.get(fig.piece as usize)?;
            let g = geoms.get(cat, p.tile);
            let &local = g.figure_spots.get(fig.feature as usize)?;
            let at = to_board(local, origin_of(p.pos), p.rot);
            upright.push((fig.piece, at));
            Some((fig.kind, at))
        })
        .collect();
    // Tokens lie flat on the tiles, under the figures and followers.
    if let Some(p) = &scene.plague {
        plague_tokens(&mut out, p, pieces, cat, &mut geoms, &upright, &origin_of);
    }
    // Towers stand at a free spot of their tile; a follower on top joins
    // the standing followers.
    for t in &scene.towers {
        let Some(at) = free_spot(pieces, cat, &mut geoms, &upright, &origin_of, t.piece) else {
            continue;
        };
        let top = tower_token(&mut out, at, t.height);
        if let Some((seat, figure)) = t.top {
            let name = names.get(seat).copied().unwrap_or("?");
            standing.push((top, player_colour(name, seat), false, name, figure));
        }
    }
    for &(kind, at) in &figures {
        match kind {
            FigureKind::Dragon => {
                let _ = writeln!(
                    out,
                    "<g transform=\"translate({},{})\" data-figure=\"dragon\"><title>Dragon</title>\
<path class=\"halo\" d=\"{DRAGON}\"/><path d=\"{DRAGON}\" fill=\"#2e7d32\" stroke=\"#0b2e0d\" stroke-width=\"1.4\"/>\
<circle cx=\"3\" cy=\"-4\" r=\"1.4\" fill=\"#ffd54f\"/></g>",
                    num(at.x),
                    num(at.y)
                );
            }
            FigureKind::Fairy => {
                let _ = writeln!(
                    out,
                    "<g transform=\"translate({},{})\" data-figure=\"fairy\"><title>Fairy</title>\
<path class=\"halo\" d=\"{FAIRY}\"/><path d=\"{FAIRY}\" fill=\"#f8bbd0\" stroke=\"#8e2453\" stroke-width=\"1.2\"/></g>",
                    num(at.x + 12.0),
                    num(at.y - 12.0)
                );
            }
            FigureKind::Gingerbread => {
                let _ = writeln!(
                    out,
                    "<g transform=\"translate({},{})\" data-figure=\"gingerbread\"><title>Gingerbread Man</title>\
<path class=\"halo\" d=\"{GINGER}\"/><path class=\"ginger\" d=\"{GINGER}\"/>\
<path class=\"icing\" d=\"M-4,-1 h8 M-2.5,5 h5\"/></g>",
                    num(at.x),
                    num(at.y)
                );
            }
        }
    }
    for b in &scene.barns {
        let o = origin_of(b.pos);
        let (dx, dy) = match b.corner {
            Corner::NW => (0.0, 0.0),
            Corner::NE => (S, 0.0),
            Corner::SE => (S, S),
            Corner::SW => (0.0, S),
        };
        let name = names.get(b.seat).copied().unwrap_or("?");
        let _ = writeln!(
            out,
            "<g transform=\"translate({},{})\" data-figure=\"barn\"><title>Barn ({})</title>\
<path class=\"halo\" d=\"{BARN}\"/><path d=\"{BARN}\" fill=\"{}\" stroke=\"#3b2410\" stroke-width=\"1.4\"/>\
<path d=\"M-3,8 V2 H3 V8\" fill=\"none\" stroke=\"#3b2410\" stroke-width=\"1.2\"/></g>",
            num(o.x + dx),
            num(o.y + dy),
            esc(name),
            player_colour(name, b.seat)
        );
    }
    for &(at, colour, lying, name, figure) in &standing {
        follower(&mut out, at, colour, lying, name, figure);
    }
    if let Some(m) = map {
        town_labels(&mut out, m, &cells, &origin_of);
    }
    if opts.grid {
        for i in 0..=(maxx - minx) {
            let _ = writeln!(
                out,
                "<text class=\"coord\" x=\"{}\" y=\"{}\">{}</text>",
                num(ox + (i as f64 + 0.5) * S),
                num(oy - 9.0),
                minx + i
            );
        }
        for j in 0..=(maxy - miny) {
            let _ = writeln!(
                out,
                "<text class=\"coord\" x=\"{}\" y=\"{}\">{}</text>",
                num(ox - 18.0),
                num(oy + (j as f64 + 0.5) * S + 6.0),
                miny + j
            );
        }
    }
    if opts.legend {
        let mut y = oy + nrows * S + margin;
        if let Some(t) = &opts.title {
            let _ = writeln!(
                out,
                "<text class=\"legend\" x=\"{}\" y=\"{}\">{}</text>",
                num(margin),
                num(y + 18.0),
                esc(t)
            );
            y += 30.0;
        }
        for (seat, line) in scene.players.iter().enumerate() {
            let name = line.name.as_str();
            let row = seat / per_row;
            let x = margin + (seat % per_row) as f64 * col_w;
            let yy = y + row as f64 * 34.0;
            follower(
                &mut out,
                Pt::new(x + 13.0, yy + 15.0),
                player_colour(name, seat),
                false,
                name,
                Figure::Normal,
            );
            let mut text = format!("{name} {} pts, {} left", line.score, line.supply);
            let count = |n: usize, one: &str, many: &str| {
                format!(", {n} {}", if n == 1 { one } else { many })
            };
            if let Some(n) = line.chips {
                text.push_str(&count(n, "chip", "chips"));
            }
            if let Some(n) = line.halves {
                text.push_str(&count(n, "half", "halves"));
            }
            if let Some([wine, grain, cloth]) = line.goods {
                text.push_str(&format!(", {wine} wine {grain} grain {cloth} cloth"));
            }
            if let Some((floors, held)) = line.tower {
                text.push_str(&count(usize::from(floors), "floor", "floors"));
                text.push_str(&count(held, "prisoner", "prisoners"));
            }
            let _ = writeln!(
                out,
                "<text class=\"legend\" x=\"{}\" y=\"{}\">{}</text>",
                num(x + 32.0),
                num(yy + 22.0),
                esc(&text)
            );
        }
        let mut yy = y + legend_rows as f64 * 34.0;
        for note in &notes {
            let _ = writeln!(
                out,
                "<text class=\"legend\" x=\"{}\" y=\"{}\">{}</text>",
                num(margin),
                num(yy + 20.0),
                esc(note)
            );
            yy += 28.0;
        }
    }
    out.push_str("</svg>\n");
    out
}

/// One tile kind in one rotation.
pub fn tile(cat: &Catalog, t: TileIdx, rot: Rotation, px_per_cell: f64) -> String {
    let def = cat.tile(t);
    let g = geom::tile_geom(cat, def);
    let cells = cells_of(def, Pos::new(0, 0), rot);
    let minx = cells.iter().map(|p| p.x).min().unwrap_or(0);
    let maxx = cells.iter().map(|p| p.x).max().unwrap_or(0);
    let miny = cells.iter().map(|p| p.y).min().unwrap_or(0);
    let maxy = cells.iter().map(|p| p.y).max().unwrap_or(0);
    let m = 8.0;
    let w = (maxx - minx + 1) as f64 * S + 2.0 * m;
    let h = (maxy - miny + 1) as f64 * S + 2.0 * m;
    let origin = Pt::new(m - minx as f64 * S, m - miny as f64 * S);
    let mut out = String::new();
    open(
        &mut out,
        w,
        h,
        px_per_cell / S,
        &format!("{} at {}", def.id, rot.degrees()),
        "",
    );
    piece(&mut out, cat, def, &g, origin, rot);
    if def.shape == Shape::Half {
        gap(&mut out, Corner::of_half(rot).opposite(), origin);
    }
    decos(&mut out, &g, origin, rot);
    out.push_str("</svg>\n");
    out
}

/// A contact sheet: every tile kind of the given sets, with ids and counts.
pub fn sheet(cat: &Catalog, sets: &[&str], px_per_cell: f64) -> String {
    let m = 24.0;
    let gap_x = 26.0;
    let label_h = 36.0;
    let per_row = 8usize;
    let row_h = S + label_h + 14.0;
    let w = 2.0 * m + per_row as f64 * (S + gap_x) - gap_x;
    // Lay out first, to know the height.
    struct Item {
        idx: TileIdx,
        at: Pt,
    }
    let mut items: Vec<Item> = Vec::new();
    let mut heads: Vec<(f64, String)> = Vec::new();
    let mut y = m;
    for name in sets {
        let Some(set) = cat.set(name) else { continue };
        let kinds: Vec<TileIdx> = set.tiles.clone();
        let count: u32 = kinds.iter().map(|&t| cat.tile(t).count as u32).sum();
        heads.push((
            y + 22.0,
            format!(
                "{} ({}): {} kinds, {} tiles",
                set.title,
                set.name,
                kinds.len(),
                count
            ),
        ));
        y += 40.0;
        let mut col = 0usize;
        for t in kinds {
            let span = cat.tile(t).cell_count().max(1);
            if col + span > per_row && col > 0 {
                col = 0;
                y += row_h;
            }
            items.push(Item {
                idx: t,
                at: Pt::new(m + col as f64 * (S + gap_x), y),
            });
            col += span;
        }
        y += row_h + 10.0;
    }
    let h = y + m - 10.0;
    let mut out = String::new();
    open(&mut out, w, h, px_per_cell / S, "Bastide tile catalog", "");
    for (hy, text) in &heads {
        let _ = writeln!(
            out,
            "<text class=\"title\" x=\"{}\" y=\"{}\">{}</text>",
            num(m),
            num(*hy),
            esc(text)
        );
    }
    let mut geoms = Geoms::default();
    for it in &items {
        let def = cat.tile(it.idx);
        let g = geoms.get(cat, it.idx).clone();
        piece(&mut out, cat, def, &g, it.at, Rotation::default());
        if def.shape == Shape::Half {
            gap(&mut out, Corner::SW.opposite(), it.at);
        }
        decos(&mut out, &g, it.at, Rotation::default());
        let cx = it.at.x + geom::width(def.shape) / 2.0;
        // The full id where it fits, else the part after the set name.
        let mut label = def.id.as_str();
        if label.chars().count() > 16 {
            label = label.split_once('/').map_or(label, |(_, rest)| rest);
        }
        let squeeze = if label.chars().count() > 16 {
            format!(
                " textLength=\"{}\" lengthAdjust=\"spacingAndGlyphs\"",
                num(S + gap_x - 8.0)
            )
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "<text class=\"label\" x=\"{}\" y=\"{}\"{squeeze}>{}</text>",
            num(cx),
            num(it.at.y + S + 16.0),
            esc(label)
        );
        let start = cat
            .set(&def.set)
            .and_then(|s| s.start)
            .is_some_and(|s| s == it.idx);
        let mut note = format!("\u{d7}{}", def.count);
        if start {
            note.push_str(", start");
        }
        if def.reconstructed {
            note.push_str(", reconstructed");
        }
        let _ = writeln!(
            out,
            "<text class=\"small\" x=\"{}\" y=\"{}\">{}</text>",
            num(cx),
            num(it.at.y + S + 30.0),
            esc(&note)
        );
    }
    out.push_str("</svg>\n");
    out
}

/// Where a tile's picture ([`tile`]) puts its cells and its followers, for
/// clients that lay the pictures out themselves (the browser client).
pub fn tile_layout(cat: &Catalog, t: TileIdx, rot: Rotation) -> crate::TileLayout {
    let def = cat.tile(t);
    let g = geom::tile_geom(cat, def);
    let oriented = def.oriented(rot);
    let cells = &oriented.cells;
    let minx = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let maxx = cells.iter().map(|c| c.0).max().unwrap_or(0);
    let miny = cells.iter().map(|c| c.1).min().unwrap_or(0);
    let maxy = cells.iter().map(|c| c.1).max().unwrap_or(0);
    // The same margin and origin as `tile`, so spots match the picture.
    let m = 8.0;
    let origin = Pt::new(m - minx as f64 * S, m - miny as f64 * S);
    let mut spots = Vec::new();
    for (ci, row) in oriented.place_feature.iter().enumerate() {
        for place in bastide_engine::Place::ALL {
            let f = row[place.index()];
            let Some(fd) = def.features.get(f as usize) else {
                continue;
            };
            let at = to_board(g.anchors[f as usize], origin, rot);
            spots.push(crate::Spot {
                cell: cells.get(ci).copied().unwrap_or((0, 0)),
                place: place.to_string(),
                feature: f,
                kind: fd.kind.name(),
                x: at.x,
                y: at.y,
                lying: g.lying[f as usize],
            });
        }
    }
    crate::TileLayout {
        width: (maxx - minx + 1) as f64 * S + 2.0 * m,
        height: (maxy - miny + 1) as f64 * S + 2.0 * m,
        origin: (origin.x, origin.y),
        cell: S,
        cells: cells.clone(),
        spots,
    }
}
