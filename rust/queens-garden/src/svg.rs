//! A position as SVG, drawn from its `queens-garden-snapshot/1`: gardens, the display,
//! storages, scores, round and wheel. The one picture of the game: `indigo render`, Jupyter,
//! the web app's server and its offline page (WebAssembly) all draw with [`position_svg`].
//!
//! A hexagon is drawn in its colour WITH its pattern's glyph and its colour code, so nothing
//! depends on telling colours apart. Glyphs: 1 tree (a triangle), 2 bird (a chevron), 3
//! butterfly (a bow), 4 flower (four petals), 5 plant (a five-point star), 6 lily (a ring of
//! six dots). Every drawn thing carries a class and `data-*` attributes (the table in
//! `indigo.queens_garden.svg`), for tests and the web page.

use std::fmt::Write as _;

use serde_json::{Map, Value};

use crate::{Attribute, Cell, Colour, Kind, Wheel};

/// Each colour's fill, in colour order: blue, yellow, light green, dark green, light purple,
/// dark purple (the light ones drawn with dark ink, the dark ones with white ink).
pub const COLOUR_FILL: [&str; 6] = [
    "#2f6fd0", "#f4d03f", "#8fd694", "#1e6b3a", "#d2b4f0", "#5a2a82",
];
/// How much larger the narrow layout draws each seat (a garden hexagon 45 units wide).
pub const NARROW_SCALE: f64 = 1.5;

const D: [(i32, i32); 6] = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)];
const DECORATIONS: [&str; 6] = ["statue", "bench", "statue", "bench", "statue", "bench"];
const CELL: f64 = 15.0; // circumradius of a garden position
const SMALL: f64 = 11.0; // circumradius of a hexagon in storage and the display
const GARDEN_W: f64 = 260.0; // a seat's block: heading, garden, storage
const BLOCK_H: f64 = 360.0;
const NARROW_W: f64 = 390.0;
const PAPER: &str = "#fbf8ef";
const LINE: &str = "#6b6455";
const INK: &str = "#1d1d1d";

/// A snapshot that cannot be drawn: the message names the field.
type Drawn<T> = Result<T, String>;

fn fmt(value: f64) -> String {
    let text = format!("{value:.1}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// ` name="value"` for each pair, in order.
fn attrs(pairs: &[(&str, String)]) -> String {
    pairs.iter().fold(String::new(), |mut out, (name, value)| {
        let _ = write!(out, " {name}=\"{}\"", escape(value).replace('"', "&quot;"));
        out
    })
}

fn hex_points(x: f64, y: f64, radius: f64) -> String {
    (0..6)
        .map(|i| {
            let angle = f64::from(60 * i).to_radians();
            format!(
                "{},{}",
                fmt(x + radius * angle.cos()),
                fmt(y + radius * angle.sin())
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn points(points: &[(f64, f64)]) -> String {
    points
        .iter()
        .map(|&(x, y)| format!("{},{}", fmt(x), fmt(y)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The axial position `(q, r)` of a cell in its garden.
#[must_use]
pub fn cell_position(cell: Cell) -> (i32, i32) {
    let name = cell.to_string();
    let digit = |i: usize| usize::from(name.as_bytes()[i] - b'0');
    if name.starts_with('f') {
        return D[digit(1)];
    }
    let (q, r) = (3 * D[digit(1)].0, 3 * D[digit(1)].1);
    if name.as_bytes()[2] == b'c' {
        return (q, r);
    }
    let (dq, dr) = D[digit(2)];
    (q + dq, r + dr)
}

fn xy((q, r): (i32, i32), ox: f64, oy: f64) -> (f64, f64) {
    let (q, r) = (f64::from(q), f64::from(r));
    (ox + 1.5 * CELL * q, oy + 3f64.sqrt() * CELL * (r + q / 2.0))
}

/// Pattern `value`'s glyph centred on (x, y), `size` about the hexagon's radius.
fn glyph(value: u8, x: f64, y: f64, size: f64, ink: &str) -> String {
    let s = size * 0.42;
    let style = format!(
        "fill=\"{ink}\" stroke=\"{ink}\" stroke-width=\"{}\"",
        fmt(size * 0.08)
    );
    match value {
        1 => {
            let pts = points(&[(x, y - s), (x + s, y + s * 0.8), (x - s, y + s * 0.8)]);
            format!("<polygon class=\"glyph\" points=\"{pts}\" {style}/>")
        }
        2 => {
            let d = points(&[(x - s, y - s * 0.5), (x, y + s * 0.4), (x + s, y - s * 0.5)])
                .replace(' ', " L");
            format!(
                "<path class=\"glyph\" d=\"M{d}\" fill=\"none\" stroke=\"{ink}\" \
                 stroke-width=\"{}\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>",
                fmt(size * 0.2)
            )
        }
        3 => {
            let pts = points(&[
                (x - s, y - s * 0.8),
                (x + s, y + s * 0.8),
                (x + s, y - s * 0.8),
                (x - s, y + s * 0.8),
            ]);
            format!("<polygon class=\"glyph\" points=\"{pts}\" {style}/>")
        }
        4 => {
            let r = s * 0.45;
            let petals = [(0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0)]
                .iter()
                .fold(String::new(), |mut out, (dx, dy)| {
                    let (cx, cy) = (fmt(x + dx * r), fmt(y + dy * r));
                    let _ = write!(out, "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{}\"/>", fmt(r));
                    out
                });
            format!("<g class=\"glyph\" fill=\"{ink}\">{petals}</g>")
        }
        5 => {
            let pts: Vec<String> = (0..10)
                .map(|i| {
                    let reach = if i % 2 == 0 { s } else { s * 0.42 };
                    let angle = f64::from(36 * i).to_radians();
                    format!(
                        "{},{}",
                        fmt(x + reach * angle.sin()),
                        fmt(y - reach * angle.cos())
                    )
                })
                .collect();
            format!(
                "<polygon class=\"glyph\" points=\"{}\" fill=\"{ink}\"/>",
                pts.join(" ")
            )
        }
        _ => {
            let dots = (0..6).fold(String::new(), |mut out, i| {
                let angle = f64::from(60 * i).to_radians();
                let (cx, cy) = (
                    fmt(x + s * 0.8 * angle.cos()),
                    fmt(y + s * 0.8 * angle.sin()),
                );
                let _ = write!(
                    out,
                    "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{}\"/>",
                    fmt(s * 0.26)
                );
                out
            });
            format!("<g class=\"glyph\" fill=\"{ink}\">{dots}</g>")
        }
    }
}

fn is_dark(colour: Colour) -> bool {
    matches!(colour.code(), "bl" | "dg" | "dp")
}

fn fill(colour: Colour) -> &'static str {
    COLOUR_FILL[usize::from(colour.index())]
}

/// A hexagon of `kind` centred on (x, y): its colour, its pattern's glyph, its colour code;
/// `class` is added to `hexagon` (`tile`, `printed`, ...) and `data` to `data-kind`.
#[must_use]
pub fn hexagon_svg(
    kind: Kind,
    x: f64,
    y: f64,
    radius: f64,
    class: &str,
    data: &[(&str, String)],
) -> String {
    let colour = kind.colour();
    let ink = if is_dark(colour) { "#ffffff" } else { INK };
    let label = if radius >= 10.0 {
        format!(
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\" fill=\"{ink}\" \
             font-family=\"sans-serif\">{colour}</text>",
            fmt(x),
            fmt(y + radius * 0.78),
            fmt(radius * 0.42)
        )
    } else {
        String::new()
    };
    let mut pairs = vec![("data-kind", kind.to_string())];
    pairs.extend(data.iter().cloned());
    // A printed hexagon (on an expansion) has a gold rim; a tile a thin dark one.
    let (rim, rim_width) = if class == "printed" {
        ("#b8860b", "2.5")
    } else {
        ("#222", "0.8")
    };
    format!(
        "<g class=\"hexagon {}\"{}><title>{kind}</title><polygon points=\"{}\" fill=\"{}\" \
         stroke=\"{rim}\" stroke-width=\"{rim_width}\"/>{}{label}</g>",
        escape(class),
        attrs(&pairs),
        hex_points(x, y, radius * 0.96),
        fill(colour),
        glyph(kind.value().get(), x, y - radius * 0.1, radius * 0.9, ink)
    )
}

/// An attribute as a hexagon of radius 12 centred on the origin: a colour as its fill and
/// code, a pattern as its glyph on white (the page's take buttons).
#[must_use]
pub fn attribute_svg(attribute: Attribute) -> String {
    let radius = 12.0;
    let name = attribute.to_string();
    if let Some(colour) = Colour::from_code(&name) {
        let ink = if is_dark(colour) { "#ffffff" } else { INK };
        return format!(
            "<polygon points=\"{}\" fill=\"{}\" stroke=\"#222\"/><text y=\"{}\" font-size=\"{}\" \
             text-anchor=\"middle\" fill=\"{ink}\" font-family=\"sans-serif\">{name}</text>",
            hex_points(0.0, 0.0, radius),
            fill(colour),
            fmt(radius * 0.35),
            fmt(radius)
        );
    }
    let value = name.parse::<u8>().unwrap_or(1);
    format!(
        "<polygon points=\"{}\" fill=\"#ffffff\" stroke=\"#222\"/>{}",
        hex_points(0.0, 0.0, radius),
        glyph(value, 0.0, 0.0, radius, INK)
    )
}

fn text(x: f64, y: f64, text: &str, size: f64, extra: &[(&str, String)]) -> String {
    format!(
        "<text x=\"{}\" y=\"{}\" font-size=\"{}\" font-family=\"sans-serif\"{} fill=\"#222\">{}</text>",
        fmt(x),
        fmt(y),
        fmt(size),
        attrs(extra),
        escape(text)
    )
}

fn anchored(x: f64, y: f64, words: &str, size: f64) -> String {
    text(x, y, words, size, &[("text-anchor", "middle".into())])
}

fn bold(x: f64, y: f64, words: &str, size: f64) -> String {
    text(x, y, words, size, &[("font-weight", "bold".into())])
}

fn element(seat: usize, name: &str, x: f64, y: f64, title: Option<&str>) -> String {
    let letter = name[..1].to_uppercase();
    let colour = match name {
        "fountain" => "#7fc8e8",
        "statue" => "#c9c2b4",
        "bench" => "#b08a5a",
        _ => "#e8a87c",
    };
    format!(
        "<g class=\"element\"{}><title>{}</title><polygon points=\"{}\" fill=\"{colour}\" \
         stroke=\"{LINE}\"/><text x=\"{}\" y=\"{}\" font-size=\"11\" font-weight=\"bold\" \
         text-anchor=\"middle\" font-family=\"sans-serif\" fill=\"#222\">{letter}</text></g>",
        attrs(&[
            ("data-seat", seat.to_string()),
            ("data-element", name.into())
        ]),
        escape(title.unwrap_or(name)),
        hex_points(x, y, CELL * 0.96),
        fmt(x),
        fmt(y + 4.0)
    )
}

fn seat_cell(seat: usize, cell: &str) -> [(&'static str, String); 2] {
    [
        ("data-seat", seat.to_string()),
        ("data-cell", cell.to_owned()),
    ]
}

fn free(seat: usize, cell: &str, (x, y): (f64, f64), colour: &str) -> String {
    format!(
        "<polygon class=\"free\"{} points=\"{}\" fill=\"{colour}\" stroke=\"{LINE}\" \
         stroke-width=\"0.8\"><title>{cell}</title></polygon>",
        attrs(&seat_cell(seat, cell)),
        hex_points(x, y, CELL * 0.96)
    )
}

/// A petal of an area without an expansion: invisible until the page outlines it as a place
/// for a stored expansion's printed hexagon.
fn spot(seat: usize, cell: &str, ox: f64, oy: f64) -> Drawn<String> {
    let (x, y) = xy(cell_position(cell_named(cell)?), ox, oy);
    Ok(format!(
        "<polygon class=\"spot\"{} points=\"{}\" fill=\"transparent\" stroke=\"none\"/>",
        attrs(&seat_cell(seat, cell)),
        hex_points(x, y, CELL * 0.96)
    ))
}

// ---------------------------------------------------------------------------------------------
// Reading the snapshot

fn field<'a>(value: &'a Value, key: &str) -> Drawn<&'a Value> {
    value
        .get(key)
        .ok_or_else(|| format!("snapshot: {key}: missing"))
}

fn count(value: &Value, key: &str) -> Drawn<u64> {
    field(value, key)?
        .as_u64()
        .ok_or_else(|| format!("snapshot: {key}: must be a whole number from 0"))
}

fn flag(value: &Value, key: &str) -> Drawn<bool> {
    field(value, key)?
        .as_bool()
        .ok_or_else(|| format!("snapshot: {key}: must be true or false"))
}

fn list<'a>(value: &'a Value, key: &str) -> Drawn<&'a Vec<Value>> {
    field(value, key)?
        .as_array()
        .ok_or_else(|| format!("snapshot: {key}: must be a list"))
}

fn object<'a>(value: &'a Value, key: &str) -> Drawn<&'a Map<String, Value>> {
    field(value, key)?
        .as_object()
        .ok_or_else(|| format!("snapshot: {key}: must be an object"))
}

fn nth<'a>(values: &'a [Value], index: usize, key: &str) -> Drawn<&'a Value> {
    values
        .get(index)
        .ok_or_else(|| format!("snapshot: {key}: has no entry {index}"))
}

fn kind_of(value: &Value, key: &str) -> Drawn<Kind> {
    value
        .as_str()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("snapshot: {key}: {value} is not a kind (bl1 .. dp6)"))
}

fn kinds(value: &Value, key: &str) -> Drawn<Vec<Kind>> {
    list(value, key)?.iter().map(|k| kind_of(k, key)).collect()
}

fn cell_named(name: &str) -> Drawn<Cell> {
    name.parse()
        .map_err(|_| format!("snapshot: gardens: {name:?} is not a cell (f0, a2c, a24)"))
}

// ---------------------------------------------------------------------------------------------
// The parts

/// Seat `seat`'s garden centred on (ox, oy).
fn garden(seat: usize, garden: &Value, ox: f64, oy: f64) -> Drawn<Vec<String>> {
    let mut tiles = Vec::new();
    for (cell, kind) in object(garden, "tiles")? {
        tiles.push((cell_named(cell)?, kind_of(kind, "tiles")?));
    }
    let mut out = vec![format!(
        "<g class=\"garden\"{}>",
        attrs(&[("data-seat", seat.to_string())])
    )];
    // Empty areas: a faint outline of where an expansion may go.
    for (area, piece) in list(garden, "areas")?.iter().enumerate() {
        let (cq, cr) = (3 * D[area % 6].0, 3 * D[area % 6].1);
        let (x, y) = xy((cq, cr), ox, oy);
        let seat_area = [
            ("data-seat", seat.to_string()),
            ("data-area", area.to_string()),
        ];
        if piece.is_null() {
            let spots: Vec<String> = (0..6)
                .map(|p| spot(seat, &format!("a{area}{p}"), ox, oy))
                .collect::<Drawn<_>>()?;
            out.push(format!(
                "<g class=\"empty-area\"{}><circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" \
                 stroke=\"#cfc7b2\" stroke-dasharray=\"3 3\"/>{}{}</g>",
                attrs(&seat_area),
                fmt(x),
                fmt(y),
                fmt(CELL * 2.3),
                spots.concat(),
                anchored(x, y + 4.0, &format!("a{area}"), 10.0)
            ));
        } else {
            out.extend(expansion(seat, area, piece, &tiles, (ox, oy))?);
        }
    }
    // The fountain board.
    let (x, y) = xy((0, 0), ox, oy);
    out.push(element(seat, "fountain", x, y, None));
    for (d, &(dq, dr)) in D.iter().enumerate() {
        let (eq, er) = D[(d + 1) % 6];
        let (x, y) = xy((dq + eq, dr + er), ox, oy);
        let decoration = DECORATIONS[d];
        let title = format!("d{d} {decoration}");
        out.push(element(seat, decoration, x, y, Some(&title)));
        let at = xy((dq, dr), ox, oy);
        out.push(tile_or_free(seat, &tiles, &format!("f{d}"), at, "#f3ecd6")?);
    }
    out.push("</g>".into());
    Ok(out)
}

/// The tile on cell `name` of a garden holding `tiles`, or the free space drawn in `back`.
fn tile_or_free(
    seat: usize,
    tiles: &[(Cell, Kind)],
    name: &str,
    (x, y): (f64, f64),
    back: &str,
) -> Drawn<String> {
    let cell = cell_named(name)?;
    Ok(match tiles.iter().find(|(c, _)| *c == cell) {
        Some(&(_, kind)) => hexagon_svg(kind, x, y, CELL, "tile", &seat_cell(seat, name)),
        None => free(seat, name, (x, y), back),
    })
}

/// Area `area`'s expansion `piece` (face up: the pavilion and its printed hexagon), with the
/// tiles on it and its free spaces, in a garden centred on (ox, oy).
fn expansion(
    seat: usize,
    area: usize,
    piece: &Value,
    tiles: &[(Cell, Kind)],
    (ox, oy): (f64, f64),
) -> Drawn<Vec<String>> {
    let face = field(piece, "face")?.as_str().unwrap_or("down");
    let up = face == "up";
    let back = if up { "#e9e1c9" } else { "#d8d2c2" };
    let pairs = [
        ("data-seat", seat.to_string()),
        ("data-area", area.to_string()),
        ("data-face", face.to_owned()),
    ];
    let mut out = vec![format!("<g class=\"expansion\"{}>", attrs(&pairs))];
    let printed = if up {
        Some((
            count(piece, "petal")?,
            kind_of(field(piece, "kind")?, "kind")?,
        ))
    } else {
        None
    };
    let centre = format!("a{area}c");
    let names = std::iter::once(centre.clone()).chain((0..6).map(|p| format!("a{area}{p}")));
    for name in names {
        let at = xy(cell_position(cell_named(&name)?), ox, oy);
        match printed {
            Some(_) if name == centre => out.push(element(
                seat,
                "pavilion",
                at.0,
                at.1,
                Some(&format!("pavilion of a{area}")),
            )),
            Some((petal, kind)) if name == format!("a{area}{petal}") => {
                out.push(hexagon_svg(
                    kind,
                    at.0,
                    at.1,
                    CELL,
                    "printed",
                    &seat_cell(seat, &name),
                ));
            }
            _ => out.push(tile_or_free(seat, tiles, &name, at, back)?),
        }
    }
    out.push("</g>".into());
    Ok(out)
}

/// The 12 tile spaces (tiles, then jokers, then empty) and the 2 expansion spaces.
fn storage(seat: usize, storage: &Value, left: f64, top: f64) -> Drawn<Vec<String>> {
    let mut out = vec![format!(
        "<g class=\"storage\"{}>",
        attrs(&[("data-seat", seat.to_string())])
    )];
    let step = SMALL * 1.9;
    let tiles = kinds(storage, "tiles")?;
    let jokers = usize::try_from(count(storage, "jokers")?).unwrap_or(usize::MAX);
    let seat_data = [("data-seat", seat.to_string())];
    for i in 0u8..12 {
        let x = left + SMALL + f64::from(i % 6) * step;
        let y = top + SMALL + f64::from(i / 6) * step;
        let at = usize::from(i);
        if let Some(&kind) = tiles.get(at) {
            out.push(hexagon_svg(kind, x, y, SMALL, "stored-tile", &seat_data));
        } else if at < tiles.len().saturating_add(jokers) {
            out.push(format!(
                "<g class=\"joker\"{}><title>joker</title><polygon points=\"{}\" fill=\"#fff\" \
                 stroke=\"#222\"/><text x=\"{}\" y=\"{}\" font-size=\"15\" text-anchor=\"middle\" \
                 font-family=\"sans-serif\" fill=\"#b8860b\">*</text></g>",
                attrs(&seat_data),
                hex_points(x, y, SMALL * 0.96),
                fmt(x),
                fmt(y + 5.0)
            ));
        } else {
            out.push(format!(
                "<polygon class=\"space\" points=\"{}\" fill=\"none\" stroke=\"#bdb49c\"/>",
                hex_points(x, y, SMALL * 0.96)
            ));
        }
    }
    let x0 = left + 6.0 * step + SMALL * 0.6;
    let expansions = kinds(storage, "expansions")?;
    for i in 0u8..2 {
        let (x, y) = (x0 + SMALL, top + SMALL + f64::from(i) * step);
        let frame = format!(
            "x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"3\"",
            fmt(x - SMALL - 2.0),
            fmt(y - SMALL - 1.0),
            fmt(2.0 * SMALL + 4.0),
            fmt(2.0 * SMALL + 2.0)
        );
        if let Some(&kind) = expansions.get(usize::from(i)) {
            out.push(format!("<rect {frame} fill=\"#e8a87c\"/>"));
            out.push(hexagon_svg(
                kind,
                x,
                y,
                SMALL,
                "stored-expansion",
                &seat_data,
            ));
        } else {
            out.push(format!(
                "<rect class=\"space\" {frame} fill=\"none\" stroke=\"#bdb49c\" \
                 stroke-dasharray=\"2 2\"/>"
            ));
        }
    }
    out.push("</g>".into());
    Ok(out)
}

/// What slot `slot` shows: its state (`top`, `hidden`, `down`, `up`, `gone`), its tiles and
/// a face-up expansion's printed kind.
fn slot_contents(
    stack: &Value,
    pieces: &[Value],
    slot: u64,
) -> Drawn<(&'static str, Vec<Kind>, Option<Kind>)> {
    if !stack.is_null() {
        let top = count(stack, "slot")?;
        if slot == top {
            return Ok(("top", kinds(stack, "tiles")?, None));
        }
        if top < slot && slot <= top + count(stack, "below")? {
            return Ok(("hidden", Vec::new(), None));
        }
    }
    let Some(piece) = pieces
        .iter()
        .find(|p| p.get("slot").and_then(Value::as_u64) == Some(slot))
    else {
        return Ok(("gone", Vec::new(), None));
    };
    let tiles = if piece.get("tiles").is_some() {
        kinds(piece, "tiles")?
    } else {
        Vec::new()
    };
    let kind = piece.get("kind").map(|k| kind_of(k, "kind")).transpose()?;
    let state = if field(piece, "face")?.as_str() == Some("up") {
        "up"
    } else {
        "down"
    };
    Ok((state, tiles, kind))
}

/// The round's slots 0..S-1: the stack (top with its tiles, hidden ones under it) and the
/// expansions that left it (face down with tiles, face up with their printed hexagon). In one
/// row after the label, or `per_row` to a row under it.
fn display(
    snap: &Value,
    left: f64,
    top: f64,
    stack_size: u64,
    per_row: Option<u64>,
) -> Drawn<Vec<String>> {
    let mut out = vec![
        "<g class=\"display\">".to_owned(),
        text(
            left,
            top + 12.0,
            "Display",
            13.0,
            &[("font-weight", "bold".into())],
        ),
    ];
    let pieces = list(snap, "display")?;
    let stack = field(snap, "stack")?;
    let width = 70.0;
    for slot in 0..stack_size {
        let (x, y) = match per_row {
            None => (left + 70.0 + slot as f64 * (width + 8.0), top),
            Some(n) => (
                left + (slot % n) as f64 * (width + 8.0),
                top + 20.0 + (slot / n) as f64 * 100.0,
            ),
        };
        let (state, tiles, kind) = slot_contents(stack, pieces, slot)?;
        out.push(format!(
            "<g class=\"slot\"{}>",
            attrs(&[
                ("data-slot", slot.to_string()),
                ("data-state", state.into())
            ])
        ));
        let label = match state {
            "top" => "stack top",
            "hidden" => "in stack",
            "down" => "face down",
            "up" => "face up",
            _ => "taken",
        };
        out.push(anchored(
            x + width / 2.0,
            y + 12.0,
            &format!("slot {slot}"),
            11.0,
        ));
        out.push(anchored(x + width / 2.0, y + 92.0, label, 9.0));
        let frame = format!(
            "x=\"{}\" y=\"{}\" width=\"{}\" height=\"64\" rx=\"6\"",
            fmt(x),
            fmt(y + 16.0),
            fmt(width)
        );
        if state == "gone" {
            out.push(format!(
                "<rect {frame} fill=\"none\" stroke=\"#cfc7b2\" stroke-dasharray=\"3 3\"/>"
            ));
        } else {
            let colour = match state {
                "hidden" => "#a9a08a",
                "up" => "#e9e1c9",
                _ => "#d8d2c2",
            };
            out.push(format!(
                "<rect {frame} fill=\"{colour}\" stroke=\"{LINE}\"/>"
            ));
        }
        if state == "hidden" {
            out.push(anchored(x + width / 2.0, y + 54.0, "?", 20.0));
        }
        let slot_data = [("data-slot", slot.to_string())];
        for (i, &tile) in tiles.iter().enumerate() {
            let hx = x + 18.0 + (i % 2) as f64 * 34.0;
            let hy = y + 32.0 + (i / 2) as f64 * 32.0;
            out.push(hexagon_svg(
                tile,
                hx,
                hy,
                13.0,
                "display-hexagon",
                &slot_data,
            ));
        }
        if let Some(kind) = kind {
            out.push(hexagon_svg(
                kind,
                x + width / 2.0,
                y + 48.0,
                17.0,
                "display-hexagon",
                &slot_data,
            ));
        }
        out.push("</g>".into());
    }
    out.push("</g>".into());
    Ok(out)
}

fn wheel(round: u64, wheel: &Wheel, left: f64, top: f64) -> Vec<String> {
    let placeholder = *wheel == Wheel::PLACEHOLDER;
    let mut pairs = vec![("data-round", round.to_string())];
    if placeholder {
        pairs.push(("data-placeholder", "True".into()));
    }
    let title = if placeholder {
        "Wheel (placeholder, not the printed wheel)"
    } else {
        "Wheel"
    };
    let mut out = vec![
        format!("<g class=\"wheel\"{}>", attrs(&pairs)),
        bold(left, top + 12.0, title, 12.0),
    ];
    for (index, categories) in (1u64..).zip(wheel.rounds()) {
        let y = top + 10.0 + index as f64 * 20.0;
        let names: Vec<String> = categories.iter().map(ToString::to_string).collect();
        let current = index == round;
        let words = format!(
            "{}round {index}: {}",
            if current { "\u{bb} " } else { "" },
            names.join(" ")
        );
        out.push(if current {
            bold(left, y, &words, 12.0)
        } else {
            text(left, y, &words, 12.0, &[])
        });
    }
    out.push("</g>".into());
    out
}

/// Seat `seat`'s heading, garden and storage, `GARDEN_W` by `BLOCK_H` before `scale`, with its
/// top left corner at (left, top).
fn seat_block(
    snap: &Value,
    seat: usize,
    name: &str,
    (left, top): (f64, f64),
    scale: f64,
) -> Drawn<Vec<String>> {
    let to_move = field(snap, "to_move")?.as_u64() == Some(seat as u64);
    let passed = nth(list(snap, "passed")?, seat, "passed")?
        .as_bool()
        .ok_or_else(|| "snapshot: passed: must hold true or false".to_owned())?
        && !flag(snap, "over")?;
    let score = nth(list(snap, "scores")?, seat, "scores")?
        .as_u64()
        .ok_or_else(|| "snapshot: scores: must hold whole numbers".to_owned())?;
    let won = list(snap, "winners")?
        .iter()
        .any(|w| w.as_u64() == Some(seat as u64));
    let tags = format!(
        "{}{}",
        if to_move { " \u{2014} to move" } else { "" },
        if passed { " \u{2014} passed" } else { "" }
    );
    let frame = if to_move {
        format!(
            "<rect x=\"-4\" y=\"-4\" width=\"{}\" height=\"{}\" rx=\"8\" fill=\"none\" \
             stroke=\"#c0392b\" stroke-width=\"2\"/>",
            fmt(GARDEN_W - 8.0),
            fmt(BLOCK_H - 2.0)
        )
    } else {
        String::new()
    };
    let crown = if won { " \u{2605} winner" } else { "" };
    let heading = format!("{name}: {score} points{crown}{tags}");
    let mut score_data = vec![
        ("data-seat", seat.to_string()),
        ("data-score", score.to_string()),
    ];
    if won {
        score_data.push(("data-winner", "true".into()));
    }
    let mut out = vec![
        format!(
            "<g class=\"seat\"{} transform=\"translate({} {}) scale({})\">",
            attrs(&[("data-seat", seat.to_string())]),
            fmt(left),
            fmt(top),
            fmt(scale)
        ),
        format!(
            "<g class=\"score\"{}>{frame}{}</g>",
            attrs(&score_data),
            bold(4.0, 14.0, &heading, 13.0)
        ),
    ];
    out.extend(garden(
        seat,
        nth(list(snap, "gardens")?, seat, "gardens")?,
        GARDEN_W / 2.0 - 6.0,
        150.0,
    )?);
    out.extend(storage(
        seat,
        nth(list(snap, "storage")?, seat, "storage")?,
        4.0,
        282.0,
    )?);
    out.push("</g>".into());
    Ok(out)
}

/// The position of snapshot `snap` as a standalone SVG, under `wheel` (the rules'), the seats
/// named `seats` (headings `P0 NAME`; `P0` without). Wide: the display and the wheel on top,
/// the seats side by side. `narrow` (for phones): one column, the display's slots four to a
/// row, each seat below the other drawn [`NARROW_SCALE`] times larger, so a hexagon stays big
/// enough to tap.
///
/// # Errors
///
/// A snapshot that lacks a field or holds a wrong value: the message names the field.
pub fn position_svg(
    snap: &Value,
    wheel_rounds: &Wheel,
    seats: Option<&[String]>,
    narrow: bool,
) -> Result<String, String> {
    let players = count(snap, "players")?;
    let stack_size = match players {
        2 => 5u64,
        3 => 7,
        4 => 8,
        _ => {
            return Err(format!(
                "snapshot: players: must be 2, 3 or 4, not {players}"
            ));
        }
    };
    let round = count(snap, "round")?;
    let moves = count(snap, "moves_played")?;
    let display_top = 40.0;
    let (width, height, info_x, info_top, gardens_top, seat_step, scale);
    if narrow {
        width = NARROW_W;
        let rows = stack_size.div_ceil(4);
        info_x = 10.0;
        info_top = display_top + 24.0 + rows as f64 * 100.0;
        gardens_top = info_top + 130.0;
        seat_step = BLOCK_H * NARROW_SCALE;
        scale = NARROW_SCALE;
        height = gardens_top + players as f64 * seat_step;
    } else {
        width = (players as f64 * GARDEN_W + 20.0).max(70.0 + stack_size as f64 * 78.0 + 300.0);
        info_x = 70.0 + stack_size as f64 * 78.0 + 20.0;
        info_top = display_top;
        gardens_top = display_top + 130.0;
        seat_step = 0.0;
        scale = 1.0;
        height = gardens_top + BLOCK_H;
    }
    let title = if narrow {
        format!("Round {round} of 4, move {moves}")
    } else {
        format!("Queen's Garden \u{2014} round {round} of 4, move {moves}")
    };
    let over = if flag(snap, "over")? {
        " \u{2014} game over"
    } else {
        ""
    };
    let mut body = vec![
        format!(
            "<rect width=\"{}\" height=\"{}\" fill=\"{PAPER}\"/>",
            fmt(width),
            fmt(height)
        ),
        bold(10.0, 24.0, &format!("{title}{over}"), 16.0),
    ];
    body.extend(display(
        snap,
        10.0,
        display_top,
        stack_size,
        narrow.then_some(4),
    )?);
    let piles = format!(
        "bag {} \u{b7} tower {} \u{b7} supply {}",
        count(snap, "bag")?,
        list(snap, "tower")?.len(),
        count(snap, "supply")?
    );
    body.push(text(
        info_x,
        info_top + 12.0,
        &piles,
        12.0,
        &[("class", "piles".into())],
    ));
    body.extend(wheel(round, wheel_rounds, info_x, info_top + 20.0));
    for seat in 0..players as usize {
        let name = match seats.and_then(|s| s.get(seat)) {
            Some(given) => format!("P{seat} {given}"),
            None => format!("P{seat}"),
        };
        let left = if narrow {
            6.0
        } else {
            10.0 + seat as f64 * GARDEN_W
        };
        let top = gardens_top + seat as f64 * seat_step;
        body.extend(seat_block(snap, seat, &name, (left, top), scale)?);
    }
    Ok(format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"queens-garden\" data-moves=\"{moves}\" \
         data-round=\"{round}\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">{}</svg>",
        body.concat(),
        w = fmt(width),
        h = fmt(height)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Game, Rules};

    #[test]
    fn every_position_of_a_game_draws_and_a_broken_snapshot_is_refused() {
        let mut game = Game::from_seed(Rules::with_players(3).unwrap(), 4);
        while let Some(mv) = game.legal_moves().last().copied() {
            let snap = game.snapshot(false);
            let wheel = game.position().rules().wheel();
            let svg = position_svg(&snap, wheel, None, false).unwrap();
            assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>"));
            assert!(svg.matches("class=\"element\"").count() >= 3 * 7);
            // Every field left out, or spoilt, is named; nothing panics.
            for key in snap.as_object().unwrap().keys() {
                let mut broken = snap.clone();
                broken[key] = Value::from("spoilt");
                if let Err(message) = position_svg(&broken, wheel, None, true) {
                    assert!(message.starts_with("snapshot: "), "{message}");
                }
            }
            game.play(&mv).unwrap();
        }
        let mut bad = game.snapshot(false);
        bad["gardens"][0]["tiles"]["f0"] = Value::from("zz9");
        let refused = position_svg(&bad, &Wheel::PLACEHOLDER, None, false).unwrap_err();
        assert!(refused.contains("zz9"), "{refused}");
        bad["players"] = Value::from(9);
        let refused = position_svg(&bad, &Wheel::PLACEHOLDER, None, false).unwrap_err();
        assert_eq!(refused, "snapshot: players: must be 2, 3 or 4, not 9");
    }
}
