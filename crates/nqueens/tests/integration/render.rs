//! Renderings pinned by snapshots, and SVG checked by an XML parser.

use nqueens_solver::formats::render::{Format, SolutionWriter, SvgStyle, svg, to_text};
use nqueens_solver::{Problem, Queen, Solution};

const FOUR: [u32; 4] = [1, 3, 0, 2];
const EIGHT: [u32; 8] = [0, 4, 7, 5, 2, 6, 1, 3];

fn render(format: Format, problem: &Problem, columns: &[u32]) -> String {
    to_text(format, problem, &Solution::from_columns(columns.to_vec()))
}

#[test]
fn text_formats_of_four_and_eight() {
    for (n, columns) in [(4, &FOUR[..]), (8, &EIGHT[..])] {
        let p = Problem::new(n).unwrap();
        for &format in Format::ALL.iter().filter(|&&f| f != Format::Svg) {
            insta::assert_snapshot!(format!("{format}_{n}"), render(format, &p, columns));
        }
    }
}

#[test]
fn fixed_queens_are_marked() {
    let p = Problem::with_fixed(8, [Queen::new(0, 0), Queen::new(3, 5)]).unwrap();
    insta::assert_snapshot!("unicode_8_fixed", render(Format::Unicode, &p, &EIGHT));
    insta::assert_snapshot!("json_8_fixed", render(Format::Json, &p, &EIGHT));
}

#[test]
fn svg_of_one_board_is_pinned_and_parses() {
    let p = Problem::new(4).unwrap();
    let picture = svg(
        &p,
        &[Solution::from_columns(FOUR.to_vec())],
        &SvgStyle::default(),
    );
    insta::assert_snapshot!("svg_4", picture);
    let doc = roxmltree::Document::parse(&picture).expect("valid XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(root.attribute("width"), Some("192"));
    let queens = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "use")
        .count();
    assert_eq!(queens, 4);
}

#[test]
fn svg_grid_lays_out_every_solution_with_the_style() {
    let p = Problem::with_fixed(8, [Queen::new(0, 0)]).unwrap();
    let solutions: Vec<Solution> = (0..5)
        .map(|_| Solution::from_columns(EIGHT.to_vec()))
        .collect();
    let style = SvgStyle {
        cell: 10,
        margin: 5,
        columns: 2,
        light: "white".parse().unwrap(),
        ..SvgStyle::default()
    };
    let picture = svg(&p, &solutions, &style);
    let doc = roxmltree::Document::parse(&picture).expect("valid XML");
    let root = doc.root_element();
    // Two boards per row, three rows: 5 + 2 × (80 + 5) wide, 5 + 3 × (80 + 5) high.
    assert_eq!(root.attribute("width"), Some("175"));
    assert_eq!(root.attribute("height"), Some("260"));
    let boards: Vec<_> = root
        .children()
        .filter(|n| n.tag_name().name() == "g")
        .collect();
    assert_eq!(boards.len(), 5);
    assert_eq!(boards[3].attribute("transform"), Some("translate(90 90)"));
    let uses: Vec<_> = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "use")
        .collect();
    assert_eq!(uses.len(), 40);
    let fixed = uses
        .iter()
        .filter(|u| u.attribute("fill") == Some(style.fixed.to_string().as_str()))
        .count();
    assert_eq!(fixed, 5, "the fixed queen of each board");
    assert!(picture.contains(r#"fill="white""#));
}

#[test]
fn the_writer_streams_many_solutions() {
    let p = Problem::new(4).unwrap();
    let a = Solution::from_columns(FOUR.to_vec());
    let b = Solution::from_columns(vec![2, 0, 3, 1]);
    let mut lines = SolutionWriter::new(Vec::new(), Format::Json, &p, SvgStyle::default());
    lines.write(&a).unwrap();
    lines.write(&b).unwrap();
    let text = String::from_utf8(lines.finish().unwrap()).unwrap();
    assert_eq!(
        text,
        "{\"n\":4,\"columns\":[2,4,1,3]}\n{\"n\":4,\"columns\":[3,1,4,2]}\n"
    );

    let mut picture = SolutionWriter::new(Vec::new(), Format::Svg, &p, SvgStyle::default());
    picture.write(&a).unwrap();
    picture.write(&b).unwrap();
    let text = String::from_utf8(picture.finish().unwrap()).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("valid XML");
    assert_eq!(
        doc.descendants()
            .filter(|n| n.tag_name().name() == "g")
            .count(),
        2
    );
}
