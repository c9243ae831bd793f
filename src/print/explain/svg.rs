//! `explain(t, #{svg: path})`: the picture as an SVG file. The index grid of each tensor
//! (1-D as a row, 2-D as a grid, higher dimensions as stacked 2-D grids), the storage below
//! as a strip of element slots with their bytes, and a line from each index to the slot it
//! reads. One tensor is coloured per row (per element when 1-D); several tensors one colour
//! each. Every cell and slot also carries its text (index, value, bytes, reader), so the
//! picture reads in black and white too. Coordinates are integers and nothing depends on
//! time or addresses: a session draws the same bytes every run.
//!
//! Each index's cell is a `rect` of class `cell` with `data-index` and `data-slots` (the
//! storage slots it reads), each coloured band of a slot a `rect` of class `slot` with
//! `data-slot`: a renderer-based test can check any picture's colours match its links.

use std::fmt::Write;

use super::arithmetic::hex;
use super::shared::{MAX_DRAWN, check_one_storage, slot_size, used_slots};
use super::value_read_by;
use super::walk::{self, index_text, tuple};
use crate::core::error::{Result, TorchError};
use crate::core::tensor::Tensor;
use crate::print::spelling;

/// Elements one picture draws at most per tensor: past that a grid is unreadable.
pub const MAX_CELLS: i64 = 256;
/// Storage slots one picture draws at most.
pub const MAX_SLOTS: usize = 256;
/// Fill colours, light enough for black text, distinct in hue and in grey level order.
pub const PALETTE: [&str; 10] = [
    "#8dd3c7", "#fdb462", "#bebada", "#fb8072", "#80b1d3", "#b3de69", "#fccde5", "#ffed6f",
    "#bc80bd", "#ccebc5",
];
/// The fill of an unused slot (under its hatching).
pub const UNUSED: &str = "#ffffff";

const MARGIN: u32 = 20;
const CELL_W: u32 = 68;
const CELL_H: u32 = 40;
const SLOT_W: u32 = 84;
/// Space under each strip row for the offset marks.
const UNDER_ROW: u32 = 24;
const SLOTS_PER_ROW: usize = 16;
/// When the strip has several rows: the lane between two slots of a row, down which the
/// links to later rows run, and the extra height between rows where a link turns into its
/// slot. A strip of one row has neither, and no link crosses a slot.
const LANE: u32 = 12;
const TURN: u32 = 12;
const GRID_GAP: u32 = 40;
const LINK_GAP: u32 = 80;
const FONT: &str = "DejaVu Sans Mono, Menlo, Consolas, monospace";

/// An axis-aligned box in picture pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rect {
    /// Left edge.
    pub x: u32,
    /// Top edge.
    pub y: u32,
    /// Width.
    pub w: u32,
    /// Height.
    pub h: u32,
}

/// One index of one tensor as drawn: its cell, colour and the slots it reads.
#[derive(Debug, Clone)]
pub struct CellBox {
    /// Position of the tensor in the picture's list.
    pub tensor: usize,
    /// The index.
    pub index: Vec<i64>,
    /// Where the cell is.
    pub rect: Rect,
    /// Its fill.
    pub color: &'static str,
    /// The first storage byte it reads.
    pub byte: usize,
    /// The storage slots its bytes cover.
    pub slots: Vec<usize>,
}

/// One storage slot as drawn: a band of colour per distinct reader colour.
#[derive(Debug, Clone)]
pub struct SlotBox {
    /// The slot's number (its first byte over the slot size).
    pub slot: usize,
    /// Where the slot is.
    pub rect: Rect,
    /// The coloured bands, left to right; one white band if no index reads the slot.
    pub stripes: Vec<(Rect, &'static str)>,
}

/// A drawn picture: its SVG text and the geometry it was drawn from.
#[derive(Debug, Clone)]
pub struct Picture {
    /// Total width in pixels.
    pub width: u32,
    /// Total height in pixels.
    pub height: u32,
    /// Every drawn index.
    pub cells: Vec<CellBox>,
    /// Every drawn slot.
    pub slots: Vec<SlotBox>,
    /// The SVG document.
    pub svg: String,
}

/// Text made safe inside an XML element or attribute.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A value shortened to fit a cell.
fn short(text: String, chars: usize) -> String {
    if text.chars().count() <= chars {
        text
    } else {
        let cut: String = text.chars().take(chars - 1).collect();
        format!("{cut}…")
    }
}

/// A darker shade of a palette colour, for the lines.
fn darker(color: &str) -> String {
    let channel = |i: usize| u8::from_str_radix(&color[i..i + 2], 16).unwrap_or(0) as u32 * 3 / 5;
    format!("#{:02x}{:02x}{:02x}", channel(1), channel(3), channel(5))
}

/// The grid shape of a tensor's sizes: (stacked grids, rows, columns).
fn grid_shape(sizes: &[i64]) -> (i64, i64, i64) {
    match sizes {
        [] => (1, 1, 1),
        [n] => (1, 1, *n),
        [r, c] => (1, *r, *c),
        [lead @ .., r, c] => (lead.iter().product(), *r, *c),
    }
}

/// Where each tensor's grids sit, and the picture's parts' positions.
struct Plan {
    /// Left edge of each tensor's block.
    left: Vec<u32>,
    /// Top of the grids.
    grids_top: u32,
    /// Top of the storage strip.
    strip_top: u32,
    /// First slot drawn and how many.
    first_slot: usize,
    drawn: usize,
    /// Lines of hex per slot.
    hex_lines: usize,
    /// Lines naming readers per slot: one per tensor.
    reader_lines: usize,
    /// Space between two slots of a row (a lane for links; 0 for a strip of one row).
    slot_gap: u32,
    /// Space between two rows of the strip, under the offset marks.
    row_gap: u32,
}

/// A slot's height: its byte number, its bytes four per line, then its readers.
fn slot_height(plan: &Plan) -> u32 {
    18 + 13 * plan.hex_lines as u32 + 13 * plan.reader_lines as u32 + 6
}

/// The call that asks for a picture, as the language running spells it.
fn svg_call() -> &'static str {
    if spelling::python() {
        "explain(..., svg=...)"
    } else {
        "explain(..., #{svg})"
    }
}

/// Draws `named` (one tensor, or several over one storage) as an SVG picture.
pub fn picture(named: &[(String, Tensor)]) -> Result<Picture> {
    check_one_storage(named)?;
    if named.len() > MAX_DRAWN {
        return Err(TorchError::value(format!(
            "{} draws at most {MAX_DRAWN} tensors at a time so that the picture stays \
             readable; the list has {} (draw a few, e.g. [a, b])",
            svg_call(),
            named.len()
        )));
    }
    for (name, t) in named {
        if t.numel() > MAX_CELLS {
            return Err(TorchError::value(format!(
                "{} draws at most {MAX_CELLS} elements per tensor so that the picture stays \
                 readable; {name} has {} (draw a smaller view, e.g. {name}{})",
                svg_call(),
                t.numel(),
                if spelling::python() { "[:4]" } else { "[0..4]" }
            )));
        }
    }
    let storage = named[0].1.storage();
    let bytes = storage.to_vec();
    let slot = slot_size(named);
    let slots = bytes.len().div_ceil(slot);
    let used = used_slots(named, slot);
    let (first_slot, drawn) = if slots <= MAX_SLOTS {
        (0, slots)
    } else {
        let (lo, hi) = used.unwrap_or((0, 0));
        let (lo, hi) = (lo.saturating_sub(1), (hi + 1).min(slots - 1));
        if hi - lo + 1 > MAX_SLOTS {
            return Err(TorchError::value(format!(
                "{} draws at most {MAX_SLOTS} storage slots; these tensors read {} slots apart \
                 (draw a smaller view)",
                svg_call(),
                hi - lo + 1
            )));
        }
        (lo, hi - lo + 1)
    };
    let single = named.len() == 1;
    // Titles: one line per tensor.
    let grids_top = MARGIN + 24 * named.len() as u32 + 16;
    let mut left = Vec::new();
    let mut x = MARGIN;
    let mut grids_height = 0;
    for (_, t) in named {
        left.push(x);
        let (stacks, rows, cols) = grid_shape(&t.sizes());
        let label = if t.ndim() >= 3 || !single { 18 } else { 0 };
        x += (cols.max(1) as u32) * CELL_W + GRID_GAP;
        grids_height = grids_height.max(stacks as u32 * (label + rows.max(0) as u32 * CELL_H + 14));
    }
    let grids_width = x - GRID_GAP;
    let hex_lines = slot.div_ceil(4);
    let strip_top = grids_top + grids_height + LINK_GAP;
    let strip_rows = drawn.div_ceil(SLOTS_PER_ROW).max(1) as u32;
    let several_rows = strip_rows > 1;
    let plan = Plan {
        left,
        grids_top,
        strip_top,
        first_slot,
        drawn,
        hex_lines,
        reader_lines: named.len(),
        slot_gap: if several_rows { LANE } else { 0 },
        row_gap: UNDER_ROW + if several_rows { TURN } else { 0 },
    };
    let columns = drawn.clamp(1, SLOTS_PER_ROW) as u32;
    let width = grids_width
        .max(MARGIN + columns * SLOT_W + (columns - 1) * plan.slot_gap)
        .max(MARGIN + 9 * title_chars(named) as u32)
        .max(
            MARGIN
                + 9 * strip_heading(bytes.len(), slots, slot, &plan)
                    .chars()
                    .count() as u32,
        )
        + MARGIN;
    let height = strip_top
        + strip_rows * slot_height(&plan)
        + (strip_rows - 1) * plan.row_gap
        + UNDER_ROW
        + 24
        + 28
        + MARGIN;

    let cells = cell_boxes(named, &plan, slot, single);
    let slot_boxes = slot_boxes(&cells, &plan, slots);

    let mut svg = String::new();
    let _ = writeln!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"{FONT}\">"
    );
    svg.push_str(
        "<defs><pattern id=\"unused\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\" \
         patternTransform=\"rotate(45)\"><rect width=\"8\" height=\"8\" fill=\"#ffffff\"/>\
         <line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"8\" stroke=\"#bbbbbb\" stroke-width=\"2\"/>\
         </pattern></defs>\n",
    );
    let _ = writeln!(
        svg,
        "<rect x=\"0\" y=\"0\" width=\"{width}\" height=\"{height}\" fill=\"#ffffff\"/>"
    );
    draw_titles(&mut svg, named, single);
    draw_links(&mut svg, &cells, &slot_boxes, &plan);
    draw_cells(&mut svg, named, &cells, &plan, single);
    draw_strip(
        &mut svg,
        named,
        &cells,
        &plan,
        &slot_boxes,
        &bytes,
        slot,
        slots,
    );
    svg.push_str("</svg>\n");
    Ok(Picture {
        width,
        height,
        cells,
        slots: slot_boxes,
        svg,
    })
}

fn title(name: &str, t: &Tensor) -> String {
    let l = t.layout();
    format!(
        "{name}: {}, size {}, stride {}, offset {}",
        t.dtype(),
        tuple(&l.sizes),
        tuple(&l.strides),
        l.offset
    )
}

fn title_chars(named: &[(String, Tensor)]) -> usize {
    named
        .iter()
        .map(|(n, t)| title(n, t).chars().count() + 3)
        .max()
        .unwrap_or(0)
}

fn draw_titles(svg: &mut String, named: &[(String, Tensor)], single: bool) {
    for (k, (name, t)) in named.iter().enumerate() {
        let y = MARGIN + 24 * k as u32;
        let text_x = if single {
            MARGIN
        } else {
            let _ = writeln!(
                svg,
                "<rect x=\"{MARGIN}\" y=\"{}\" width=\"16\" height=\"16\" fill=\"{}\" \
                 stroke=\"#000000\"/>",
                y + 2,
                PALETTE[k % PALETTE.len()]
            );
            MARGIN + 24
        };
        let _ = writeln!(
            svg,
            "<text x=\"{text_x}\" y=\"{}\" font-size=\"15\" font-weight=\"bold\">{}</text>",
            y + 15,
            escape(&title(name, t))
        );
    }
}

/// The cells of every tensor, with their colours and the slots they read.
fn cell_boxes(named: &[(String, Tensor)], plan: &Plan, slot: usize, single: bool) -> Vec<CellBox> {
    let mut cells = Vec::new();
    for (k, (_, t)) in named.iter().enumerate() {
        let sizes = t.sizes();
        let (_, rows, _) = grid_shape(&sizes);
        let label = if t.ndim() >= 3 || !single { 18 } else { 0 };
        let stack_height = label + rows.max(0) as u32 * CELL_H + 14;
        let item = t.dtype().itemsize();
        walk::each_element(&t.layout(), |index, elem| {
            let flat_row = match index.len() {
                0 | 1 => 0,
                n => index[..n - 1]
                    .iter()
                    .zip(&sizes[..n - 1])
                    .fold(0i64, |acc, (i, s)| acc * s + i),
            };
            let col = index.last().copied().unwrap_or(0);
            let (stack, row) = (flat_row / rows.max(1), flat_row % rows.max(1));
            let rect = Rect {
                x: plan.left[k] + col as u32 * CELL_W,
                y: plan.grids_top + stack as u32 * stack_height + label + row as u32 * CELL_H,
                w: CELL_W,
                h: CELL_H,
            };
            let color = if !single {
                PALETTE[k % PALETTE.len()]
            } else if index.len() <= 1 {
                PALETTE[col as usize % PALETTE.len()]
            } else {
                PALETTE[flat_row as usize % PALETTE.len()]
            };
            let start = usize::try_from(elem).unwrap_or(0) * item;
            cells.push(CellBox {
                tensor: k,
                index: index.to_vec(),
                rect,
                color,
                byte: start,
                slots: (start / slot..=(start + item - 1) / slot).collect(),
            });
        });
    }
    cells
}

/// Each drawn slot's box and bands: the distinct colours of the cells that read it, in the
/// order the cells come.
fn slot_boxes(cells: &[CellBox], plan: &Plan, slots: usize) -> Vec<SlotBox> {
    let mut colors: Vec<Vec<&'static str>> = vec![Vec::new(); plan.drawn];
    for c in cells {
        for &s in &c.slots {
            if let Some(list) = s
                .checked_sub(plan.first_slot)
                .and_then(|i| colors.get_mut(i))
                && !list.contains(&c.color)
            {
                list.push(c.color);
            }
        }
    }
    let height = slot_height(plan);
    (0..plan.drawn.min(slots))
        .map(|i| {
            let rect = Rect {
                x: MARGIN + (i % SLOTS_PER_ROW) as u32 * (SLOT_W + plan.slot_gap),
                y: plan.strip_top + (i / SLOTS_PER_ROW) as u32 * (height + plan.row_gap),
                w: SLOT_W,
                h: height,
            };
            let list = &colors[i];
            let stripes = if list.is_empty() {
                vec![(rect, UNUSED)]
            } else {
                let n = list.len() as u32;
                list.iter()
                    .enumerate()
                    .map(|(j, c)| {
                        let j = j as u32;
                        let x0 = rect.x + rect.w * j / n;
                        let x1 = rect.x + rect.w * (j + 1) / n;
                        (
                            Rect {
                                x: x0,
                                y: rect.y,
                                w: x1 - x0,
                                h: rect.h,
                            },
                            *c,
                        )
                    })
                    .collect()
            };
            SlotBox {
                slot: plan.first_slot + i,
                rect,
                stripes,
            }
        })
        .collect()
}

/// A line from each cell to the top of the first slot it reads. To a slot in the strip's
/// first row it is one curve. To a slot in a later row it curves to the lane left of the
/// slot's column, runs down the lane past the rows above (between their slots, never over
/// one), and turns into the slot in the space above its row.
fn draw_links(svg: &mut String, cells: &[CellBox], slots: &[SlotBox], plan: &Plan) {
    svg.push_str("<g fill=\"none\" stroke-width=\"1.5\">\n");
    for c in cells {
        let Some(target) = c
            .slots
            .first()
            .and_then(|s| slots.iter().find(|b| b.slot == *s))
        else {
            continue;
        };
        let (x0, y0) = (c.rect.x + c.rect.w / 2, c.rect.y + c.rect.h);
        let span = c.slots.len() as u32;
        let (x1, y1) = (target.rect.x + target.rect.w * span / 2, target.rect.y);
        let d = if y1 == plan.strip_top {
            let mid = (y0 + y1) / 2;
            format!("M{x0},{y0} C{x0},{mid} {x1},{mid} {x1},{y1}")
        } else {
            let lane = target.rect.x - plan.slot_gap / 2;
            let above_strip = plan.strip_top - TURN / 2;
            let mid = (y0 + above_strip) / 2;
            let turn = y1 - TURN / 2;
            format!(
                "M{x0},{y0} C{x0},{mid} {lane},{mid} {lane},{above_strip} L{lane},{turn} \
                 L{x1},{y1}"
            )
        };
        let _ = writeln!(svg, "<path d=\"{d}\" stroke=\"{}\"/>", darker(c.color));
    }
    svg.push_str("</g>\n");
}

fn draw_cells(
    svg: &mut String,
    named: &[(String, Tensor)],
    cells: &[CellBox],
    plan: &Plan,
    single: bool,
) {
    for (k, (name, t)) in named.iter().enumerate() {
        let sizes = t.sizes();
        let (stacks, rows, _) = grid_shape(&sizes);
        let label = if t.ndim() >= 3 || !single { 18 } else { 0 };
        let stack_height = label + rows.max(0) as u32 * CELL_H + 14;
        if label > 0 {
            for s in 0..stacks {
                let text = if t.ndim() >= 3 {
                    let mut lead = Vec::new();
                    let mut rest = s;
                    for size in sizes[..sizes.len() - 2].iter().rev() {
                        lead.push(rest % size);
                        rest /= size;
                    }
                    lead.reverse();
                    format!(
                        "{name}[{}, :, :]",
                        lead.iter()
                            .map(i64::to_string)
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                } else {
                    name.clone()
                };
                let _ = writeln!(
                    svg,
                    "<text x=\"{}\" y=\"{}\" font-size=\"13\">{}</text>",
                    plan.left[k],
                    plan.grids_top + s as u32 * stack_height + 13,
                    escape(&text)
                );
            }
        }
    }
    for c in cells {
        let t = &named[c.tensor].1;
        let value = t
            .storage()
            .with_bytes(|b| {
                b.get(c.byte..c.byte + t.dtype().itemsize())
                    .map(|v| value_read_by(t, v))
            })
            .unwrap_or_default();
        let Rect { x, y, w, h } = c.rect;
        let _ = writeln!(
            svg,
            "<rect class=\"cell\" data-tensor=\"{}\" data-index=\"{}\" data-slots=\"{}\" \
             x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" fill=\"{}\" stroke=\"#000000\"/>",
            c.tensor,
            c.index
                .iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(","),
            c.slots
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(" "),
            c.color
        );
        let _ = writeln!(
            svg,
            "<text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\">{}</text>",
            x + w / 2,
            y + 15,
            escape(&short(index_text(&c.index), 10))
        );
        let _ = writeln!(
            svg,
            "<text x=\"{}\" y=\"{}\" font-size=\"13\" text-anchor=\"middle\" \
             font-weight=\"bold\">{}</text>",
            x + w / 2,
            y + 32,
            escape(&short(value, 8))
        );
    }
}

/// The line under the strip: the storage's size and what is not drawn.
fn strip_heading(nbytes: usize, slots: usize, slot: usize, plan: &Plan) -> String {
    let before = plan.first_slot;
    let after = slots - plan.first_slot - plan.drawn;
    let mut heading = format!(
        "storage: {nbytes} bytes, {slots} slots of {slot} byte{}",
        if slot == 1 { "" } else { "s" }
    );
    if before + after > 0 {
        heading += &format!(" ({before} slots before and {after} after not drawn)");
    }
    heading
}

#[allow(clippy::too_many_arguments)]
fn draw_strip(
    svg: &mut String,
    named: &[(String, Tensor)],
    cells: &[CellBox],
    plan: &Plan,
    boxes: &[SlotBox],
    bytes: &[u8],
    slot: usize,
    slots: usize,
) {
    // Each tensor's first index reading each slot, and how many more do: the cells, already
    // walked in index order, say which slots each index reads.
    let mut readers: Vec<Vec<Option<(String, u64)>>> = vec![vec![None; named.len()]; boxes.len()];
    for c in cells {
        for s in &c.slots {
            if let Some(reader) = s
                .checked_sub(plan.first_slot)
                .and_then(|i| readers.get_mut(i))
                .map(|r| &mut r[c.tensor])
            {
                match reader {
                    Some((_, more)) => *more += 1,
                    None => *reader = Some((index_text(&c.index), 0)),
                }
            }
        }
    }
    let offsets: Vec<(usize, &str)> = named
        .iter()
        .filter_map(|(n, t)| {
            let start = usize::try_from(t.layout().offset).ok()? * t.dtype().itemsize();
            Some((start / slot, n.as_str()))
        })
        .collect();
    for (i, b) in boxes.iter().enumerate() {
        let Rect { x, y, w, h } = b.rect;
        let centre = x + w / 2;
        let start = b.slot * slot;
        if b.stripes.len() == 1 && b.stripes[0].1 == UNUSED {
            let _ = writeln!(
                svg,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" fill=\"url(#unused)\"/>"
            );
        } else {
            for (r, color) in &b.stripes {
                let _ = writeln!(
                    svg,
                    "<rect class=\"slot\" data-slot=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" \
                     height=\"{}\" fill=\"{color}\"/>",
                    b.slot, r.x, r.y, r.w, r.h
                );
            }
        }
        let _ = writeln!(
            svg,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" fill=\"none\" \
             stroke=\"#000000\"/>"
        );
        let _ = writeln!(
            svg,
            "<text x=\"{centre}\" y=\"{}\" font-size=\"10\" text-anchor=\"middle\" \
             fill=\"#333333\">byte {start}</text>",
            y + 13
        );
        let chunk = &bytes[start..(start + slot).min(bytes.len())];
        let mut line_y = y + 18;
        for four in chunk.chunks(4) {
            line_y += 13;
            let _ = writeln!(
                svg,
                "<text x=\"{centre}\" y=\"{line_y}\" font-size=\"11\" \
                 text-anchor=\"middle\">{}</text>",
                hex(four)
            );
        }
        line_y += (plan.hex_lines - chunk.len().div_ceil(4)) as u32 * 13;
        let texts: Vec<String> = if readers[i].iter().all(Option::is_none) {
            vec!["unused".to_string()]
        } else {
            readers[i]
                .iter()
                .enumerate()
                .filter_map(|(k, r)| {
                    let (index, more) = r.as_ref()?;
                    let who = if named.len() == 1 {
                        index.clone()
                    } else {
                        format!("{}{index}", named[k].0)
                    };
                    Some(if *more > 0 {
                        format!("{who} +{more}")
                    } else {
                        who
                    })
                })
                .collect()
        };
        for text in texts {
            line_y += 13;
            let _ = writeln!(
                svg,
                "<text x=\"{centre}\" y=\"{line_y}\" font-size=\"11\" \
                 text-anchor=\"middle\" font-style=\"italic\">{}</text>",
                escape(&short(text, 12))
            );
        }
        let starting: Vec<&str> = offsets
            .iter()
            .filter(|(s, _)| *s == b.slot && (named.len() > 1 || *s > 0))
            .map(|(_, n)| *n)
            .collect();
        if !starting.is_empty() {
            let label = if named.len() == 1 {
                "▲ offset".to_string()
            } else {
                format!("▲ {} offset", starting.join(", "))
            };
            let _ = writeln!(
                svg,
                "<text x=\"{}\" y=\"{}\" font-size=\"11\">{}</text>",
                x + 2,
                y + h + 14,
                escape(&label)
            );
        }
    }
    let bottom = boxes
        .last()
        .map_or(plan.strip_top, |b| b.rect.y + b.rect.h + UNDER_ROW);
    let heading = strip_heading(bytes.len(), slots, slot, plan);
    let _ = writeln!(
        svg,
        "<text x=\"{MARGIN}\" y=\"{}\" font-size=\"14\" font-weight=\"bold\">{}</text>",
        bottom + 12,
        escape(&heading)
    );
    let legend_y = bottom + 26;
    let _ = writeln!(
        svg,
        "<rect x=\"{MARGIN}\" y=\"{legend_y}\" width=\"16\" height=\"12\" fill=\"url(#unused)\" \
         stroke=\"#000000\"/>\n<text x=\"{}\" y=\"{}\" font-size=\"11\">unused slot: no index \
         reads it</text>",
        MARGIN + 22,
        legend_y + 10
    );
}
