//! The SVG pictures of `explain(..., #{svg})`: the committed pictures in `docs/pictures` are
//! exactly what `scripts/pictures.rhai` draws (byte for byte, every run), and each one,
//! rendered by a real SVG renderer (resvg), shows every index in the colour of the storage
//! slot it is linked to.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Runs the script `path` with `dir` as the working folder; it must succeed.
fn run_in(dir: &Path, path: &Path) {
    let out = Command::new(env!("CARGO_BIN_EXE_tensh"))
        .arg(path)
        .current_dir(dir)
        .output()
        .expect("run tensh");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs `scripts/pictures.rhai` in a fresh folder; returns the pictures it wrote.
fn draw_pictures(tag: &str) -> BTreeMap<String, Vec<u8>> {
    let dir = std::env::temp_dir().join(format!("tensh-pictures-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("docs/pictures")).unwrap();
    run_in(&dir, &Path::new(ROOT).join("scripts/pictures.rhai"));
    let pictures = svg_files(&dir.join("docs/pictures"));
    let _ = std::fs::remove_dir_all(&dir);
    pictures
}

fn svg_files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut found = BTreeMap::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path: PathBuf = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "svg") {
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            found.insert(name, std::fs::read(&path).unwrap());
        }
    }
    found
}

fn committed() -> BTreeMap<String, Vec<u8>> {
    svg_files(&Path::new(ROOT).join("docs/pictures"))
}

#[test]
fn the_committed_pictures_are_what_the_script_draws_every_run() {
    let first = draw_pictures("a");
    let second = draw_pictures("b");
    assert!(first.len() >= 8, "{:?}", first.keys());
    assert_eq!(first, second, "two runs drew different bytes");
    let committed = committed();
    assert_eq!(
        first.keys().collect::<Vec<_>>(),
        committed.keys().collect::<Vec<_>>(),
        "docs/pictures differs from what scripts/pictures.rhai writes"
    );
    for (name, bytes) in &first {
        assert!(
            committed[name] == *bytes,
            "docs/pictures/{name} is out of date: run `tensh scripts/pictures.rhai` from the \
             repository's root"
        );
    }
}

/// The value of attribute `name` in one SVG element's text.
fn attr<'a>(element: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let start = element.find(&key)? + key.len();
    let len = element[start..].find('"')?;
    Some(&element[start..start + len])
}

fn number(element: &str, name: &str) -> u32 {
    attr(element, name).unwrap().parse().unwrap()
}

fn rgb(hex: &str) -> [u8; 3] {
    let c = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).unwrap();
    [c(1), c(3), c(5)]
}

/// A rendered picture's pixel at (x, y), as RGB.
fn pixel(pixmap: &resvg::tiny_skia::Pixmap, x: u32, y: u32) -> [u8; 3] {
    let p = pixmap.pixel(x, y).expect("inside the picture");
    [p.red(), p.green(), p.blue()]
}

fn render(svg: &[u8]) -> resvg::tiny_skia::Pixmap {
    let tree = resvg::usvg::Tree::from_data(svg, &resvg::usvg::Options::default()).unwrap();
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    pixmap
}

#[test]
fn every_index_has_the_colour_of_the_slot_it_reads() {
    let pictures = committed();
    assert!(!pictures.is_empty());
    for (name, bytes) in pictures {
        let text = String::from_utf8(bytes.clone()).unwrap();
        let pixmap = render(&bytes);
        let mut slots: BTreeMap<u32, Vec<(u32, u32, [u8; 3])>> = BTreeMap::new();
        for line in text.lines().filter(|l| l.contains("class=\"slot\"")) {
            let (x, y, w) = (number(line, "x"), number(line, "y"), number(line, "width"));
            let fill = rgb(attr(line, "fill").unwrap());
            // The band's own pixels are its colour (a renderer that dropped it would not).
            assert_eq!(pixel(&pixmap, x + w / 2, y + 3), fill, "{name}: {line}");
            slots
                .entry(number(line, "data-slot"))
                .or_default()
                .push((x, y, fill));
        }
        let mut cells = 0;
        for line in text.lines().filter(|l| l.contains("class=\"cell\"")) {
            cells += 1;
            let fill = rgb(attr(line, "fill").unwrap());
            let (x, y) = (number(line, "x"), number(line, "y"));
            assert_eq!(pixel(&pixmap, x + 3, y + 3), fill, "{name}: {line}");
            for slot in attr(line, "data-slots").unwrap().split(' ') {
                let bands = &slots[&slot.parse::<u32>().unwrap()];
                assert!(
                    bands
                        .iter()
                        .any(|(bx, by, c)| *c == fill && pixel(&pixmap, bx + 3, by + 3) == fill),
                    "{name}: index {} is not drawn in its slot {slot}'s colours",
                    attr(line, "data-index").unwrap()
                );
            }
        }
        assert!(cells > 0, "{name} draws no index");
    }
}

/// Points along an SVG path made of `M`, `C` (cubic) and `L` commands, every few pixels.
fn path_points(d: &str) -> Vec<(f64, f64)> {
    let mut points = Vec::new();
    let mut current = (0.0, 0.0);
    let mut tokens = d.split_whitespace().peekable();
    let pair = |t: &str| {
        let (x, y) = t
            .trim_start_matches(char::is_alphabetic)
            .split_once(',')
            .unwrap();
        (x.parse::<f64>().unwrap(), y.parse::<f64>().unwrap())
    };
    while let Some(t) = tokens.next() {
        match t.chars().next().unwrap() {
            'M' => {
                current = pair(t);
                points.push(current);
            }
            'C' => {
                let (a, b, c) = (
                    pair(t),
                    pair(tokens.next().unwrap()),
                    pair(tokens.next().unwrap()),
                );
                for k in 1..=100 {
                    let u = k as f64 / 100.0;
                    let v = 1.0 - u;
                    let at = |p0: f64, p1: f64, p2: f64, p3: f64| {
                        v * v * v * p0
                            + 3.0 * v * v * u * p1
                            + 3.0 * v * u * u * p2
                            + u * u * u * p3
                    };
                    points.push((at(current.0, a.0, b.0, c.0), at(current.1, a.1, b.1, c.1)));
                }
                current = c;
            }
            'L' => {
                let to = pair(t);
                for k in 1..=100 {
                    let u = k as f64 / 100.0;
                    points.push((
                        current.0 + (to.0 - current.0) * u,
                        current.1 + (to.1 - current.1) * u,
                    ));
                }
                current = to;
            }
            other => panic!("unexpected path command {other} in {d}"),
        }
    }
    points
}

#[test]
fn every_link_ends_at_its_slot_and_crosses_no_other_slot() {
    let mut several_rows = 0;
    for (name, bytes) in committed() {
        let text = String::from_utf8(bytes).unwrap();
        // Each slot's outline, and each slot number's place from its coloured bands.
        let outlines: Vec<[f64; 4]> = text
            .lines()
            .filter(|l| l.starts_with("<rect x=") && l.contains("fill=\"none\" stroke=\"#000000\""))
            .map(|l| ["x", "y", "width", "height"].map(|a| number(l, a) as f64))
            .collect();
        let mut places: BTreeMap<u32, [f64; 4]> = BTreeMap::new();
        for l in text.lines().filter(|l| l.contains("class=\"slot\"")) {
            let [x, y, w, h] = ["x", "y", "width", "height"].map(|a| number(l, a) as f64);
            let place = places
                .entry(number(l, "data-slot"))
                .or_insert([x, y, 0.0, h]);
            place[0] = place[0].min(x);
            place[2] += w;
        }
        let rows: std::collections::BTreeSet<u64> = outlines.iter().map(|o| o[1] as u64).collect();
        several_rows += usize::from(rows.len() > 1);
        let paths: Vec<Vec<(f64, f64)>> = text
            .lines()
            .filter_map(|l| l.strip_prefix("<path d=\""))
            .map(|l| path_points(&l[..l.find('"').unwrap()]))
            .collect();
        for cell in text.lines().filter(|l| l.contains("class=\"cell\"")) {
            let [x, y, w, h] = ["x", "y", "width", "height"].map(|a| number(cell, a) as f64);
            let index = attr(cell, "data-index").unwrap();
            let read: Vec<u32> = attr(cell, "data-slots")
                .unwrap()
                .split(' ')
                .map(|n| n.parse().unwrap())
                .collect();
            let first = read[0];
            let path = paths
                .iter()
                .find(|p| p[0] == (x + w / 2.0, y + h))
                .unwrap_or_else(|| panic!("{name}: no link from index {index}"));
            // A cell reading several slots points at the middle of their run.
            let last = places[read.last().unwrap()];
            let target = places[&first];
            let end = *path.last().unwrap();
            assert!(
                end.1 == target[1] && end.0 > target[0] && end.0 < last[0] + last[2],
                "{name}: index {index}'s link ends at {end:?}, not on slot {first} ({target:?})"
            );
            for &(px, py) in path.iter().filter(|p| (p.1 - end.1).abs() > 1.0) {
                for o in &outlines {
                    let inside = px > o[0] + 1.0
                        && px < o[0] + o[2] - 1.0
                        && py > o[1] + 1.0
                        && py < o[1] + o[3] - 1.0;
                    assert!(
                        !inside,
                        "{name}: index {index}'s link to slot {first} passes over the slot at {o:?} ({px}, {py})"
                    );
                }
            }
        }
    }
    assert!(
        several_rows > 0,
        "no committed picture has a strip of several rows"
    );
}

#[test]
fn a_picture_too_big_to_read_is_refused_before_any_output() {
    let dir = std::env::temp_dir().join(format!("tensh-big-picture-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("big.rhai"),
        "try { explain(torch::arange(1000), #{svg: \"never.svg\"}) } catch (e) { print(e) }",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tensh"))
        .arg("big.rhai")
        .current_dir(&dir)
        .output()
        .expect("run tensh");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with("ValueError: explain(..., #{svg}) draws at most 256 elements"),
        "{stdout}"
    );
    assert!(!dir.join("never.svg").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_kernel_logos_are_drawn_from_the_logo_svg() {
    let tree = resvg::usvg::Tree::from_str(
        tensh::jupyter::spec::LOGO_SVG,
        &resvg::usvg::Options::default(),
    )
    .unwrap();
    for px in [32u32, 64] {
        let scale = px as f32 / tree.size().width();
        let mut drawn = resvg::tiny_skia::Pixmap::new(px, px).unwrap();
        resvg::render(
            &tree,
            resvg::tiny_skia::Transform::from_scale(scale, scale),
            &mut drawn.as_mut(),
        );
        let path = format!("src/jupyter/logo/logo-{px}x{px}.png");
        let committed = resvg::tiny_skia::Pixmap::load_png(&path).unwrap();
        assert_eq!((committed.width(), committed.height()), (px, px), "{path}");
        let far = drawn
            .data()
            .iter()
            .zip(committed.data())
            .filter(|(a, b)| a.abs_diff(**b) > 2)
            .count();
        assert_eq!(far, 0, "{path} is not the logo drawn at {px} pixels");
    }
}

#[test]
fn a_picture_is_titled_with_the_expression_the_user_wrote() {
    let dir = std::env::temp_dir().join(format!("tensh-titled-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("titled.rhai"),
        "let x = torch::arange(6).view(2, 3);\n\
         explain(x.t(), #{svg: \"t.svg\"});\n\
         explain(x[\"1:\"].view(3), #{svg: \"row.svg\"});\n\
         explain(x, #{svg: \"x.svg\"});\n\
         let y = x.t();\n\
         explain(y, #{svg: \"y.svg\"});\n",
    )
    .unwrap();
    run_in(&dir, Path::new("titled.rhai"));
    let title = |file: &str| {
        let svg = std::fs::read_to_string(dir.join(file)).unwrap();
        let start = svg.find("font-weight=\"bold\">").unwrap() + "font-weight=\"bold\">".len();
        svg[start..start + svg[start..].find("</text>").unwrap()].to_string()
    };
    assert_eq!(
        title("t.svg"),
        "x.t(): torch.int64, size (3, 2), stride (1, 3), offset 0"
    );
    assert_eq!(
        title("row.svg"),
        "x[&quot;1:&quot;].view(3): torch.int64, size (3,), stride (1,), offset 3"
    );
    assert!(title("x.svg").starts_with("x: "));
    assert!(title("y.svg").starts_with("y: "));
    let _ = std::fs::remove_dir_all(&dir);
}
