//! The book's Bresenham line for tile chasing (002a §3.3, `BuildPathToTarget`).
//!
//! The book doubles both deltas *before* forming the starting error term, so its error starts at
//! `4|minor| − 2|major|` instead of the textbook `2|minor| − |major|`, and for some slopes its
//! cells differ from the textbook line (digest 002a §6.2). Tile chasing and patrol patterns are
//! pinned to the book's cells, so both variants are offered and the book's is the default.
//!
//! For visibility use [`crate::grid::walk_supercover`] instead: Bresenham skips cells the segment
//! grazes, which is right for a walking line (no extra minor-axis steps) and wrong for sight.

use glam::IVec2;

/// Which error term the line starts with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BresenhamVariant {
    /// The book's printed code: `4|minor| − 2|major|`.
    #[default]
    Book,
    /// The textbook algorithm: `2|minor| − |major|`.
    Textbook,
}

/// The cells of the line from `from` to `to`, both included (x = column, y = row).
///
/// Always ends at `to`, every step is to one of the 8 neighbours, and the line has
/// `max(|Δx|, |Δy|) + 1` cells. When `|Δx| = |Δy|` the row-major branch runs, as in the book
/// (its test is a strict `>`).
pub fn bresenham_line(from: IVec2, to: IVec2, variant: BresenhamVariant) -> Vec<IVec2> {
    let mut cells = Vec::with_capacity((to - from).abs().max_element() as usize + 1);
    bresenham_line_into(from, to, variant, &mut cells);
    cells
}

/// Appends the cells of [`bresenham_line`] to `out`, so callers that rebuild lines every move
/// (tile chasers, patterns) reuse one buffer.
pub fn bresenham_line_into(from: IVec2, to: IVec2, variant: BresenhamVariant, out: &mut Vec<IVec2>) {
    // The book's names: rows are y, columns are x.
    let (mut row, mut col) = (i64::from(from.y), i64::from(from.x));
    let (end_row, end_col) = (i64::from(to.y), i64::from(to.x));
    let step_row = if end_row - row < 0 { -1 } else { 1 };
    let step_col = if end_col - col < 0 { -1 } else { 1 };
    let delta_row = ((end_row - row) * 2).abs();
    let delta_col = ((end_col - col) * 2).abs();
    let start_error = |minor: i64, major: i64| match variant {
        BresenhamVariant::Book => minor * 2 - major,
        BresenhamVariant::Textbook => minor - major / 2,
    };
    let cell = |row: i64, col: i64| IVec2::new(col as i32, row as i32);
    out.push(cell(row, col));
    if delta_col > delta_row {
        let mut fraction = start_error(delta_row, delta_col);
        while col != end_col {
            if fraction >= 0 {
                row += step_row;
                fraction -= delta_col;
            }
            col += step_col;
            fraction += delta_row;
            out.push(cell(row, col));
        }
    } else {
        let mut fraction = start_error(delta_col, delta_row);
        while row != end_row {
            if fraction >= 0 {
                col += step_col;
                fraction -= delta_row;
            }
            row += step_row;
            fraction += delta_col;
            out.push(cell(row, col));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The book's (row, col) pairs as cells.
    fn rc(pairs: &[(i32, i32)]) -> Vec<IVec2> {
        pairs.iter().map(|&(r, c)| IVec2::new(c, r)).collect()
    }

    fn line(a: (i32, i32), b: (i32, i32), v: BresenhamVariant) -> Vec<IVec2> {
        bresenham_line(IVec2::new(a.1, a.0), IVec2::new(b.1, b.0), v)
    }

    #[test]
    fn book_cells_of_the_chase_examples() {
        // 002a §6.2, (row, col), path[0] = start.
        type Case = ((i32, i32), (i32, i32), &'static [(i32, i32)]);
        let cases: &[Case] = &[
            ((0, 0), (3, 7), &[(0, 0), (0, 1), (1, 2), (1, 3), (2, 4), (2, 5), (3, 6), (3, 7)]),
            ((0, 0), (7, 3), &[(0, 0), (1, 0), (2, 1), (3, 1), (4, 2), (5, 2), (6, 3), (7, 3)]),
            ((5, 5), (0, 0), &[(5, 5), (4, 4), (3, 3), (2, 2), (1, 1), (0, 0)]),
            ((0, 0), (2, 5), &[(0, 0), (0, 1), (1, 2), (1, 3), (2, 4), (2, 5)]),
            ((0, 0), (1, 4), &[(0, 0), (0, 1), (0, 2), (1, 3), (1, 4)]),
        ];
        for &(a, b, cells) in cases {
            assert_eq!(line(a, b, BresenhamVariant::Book), rc(cells), "{a:?} → {b:?}");
        }
        let textbook = line((0, 0), (1, 4), BresenhamVariant::Textbook);
        assert_eq!(textbook, rc(&[(0, 0), (0, 1), (1, 2), (1, 3), (1, 4)]));
    }

    #[test]
    fn book_cells_of_the_patrol_segments() {
        // 002a §6.5, the complex patrol's segments, with the textbook cells where they differ.
        let b = BresenhamVariant::Book;
        let t = BresenhamVariant::Textbook;
        assert_eq!(
            line((4, 11), (2, 24), b),
            rc(&[
                (4, 11),
                (4, 12),
                (4, 13),
                (4, 14),
                (4, 15),
                (4, 16),
                (3, 17),
                (3, 18),
                (3, 19),
                (3, 20),
                (3, 21),
                (3, 22),
                (2, 23),
                (2, 24)
            ])
        );
        assert_eq!(
            line((4, 11), (2, 24), t),
            rc(&[
                (4, 11),
                (4, 12),
                (4, 13),
                (4, 14),
                (3, 15),
                (3, 16),
                (3, 17),
                (3, 18),
                (3, 19),
                (3, 20),
                (2, 21),
                (2, 22),
                (2, 23),
                (2, 24)
            ])
        );
        assert_eq!(
            line((2, 24), (13, 27), b),
            rc(&[
                (2, 24),
                (3, 24),
                (4, 24),
                (5, 25),
                (6, 25),
                (7, 25),
                (8, 25),
                (9, 26),
                (10, 26),
                (11, 26),
                (12, 27),
                (13, 27)
            ])
        );
        let tb = line((2, 24), (13, 27), t);
        assert!(
            tb.contains(&IVec2::new(25, 4)) && tb.contains(&IVec2::new(26, 8)),
            "textbook differs at (4,25), (8,26)"
        );
        assert_eq!(line((13, 27), (16, 24), b), rc(&[(13, 27), (14, 26), (15, 25), (16, 24)]));
        assert_eq!(
            line((16, 24), (13, 17), b),
            rc(&[(16, 24), (16, 23), (15, 22), (15, 21), (14, 20), (14, 19), (13, 18), (13, 17)])
        );
        assert_eq!(
            line((13, 13), (17, 5), b),
            rc(&[(13, 13), (14, 12), (14, 11), (15, 10), (15, 9), (16, 8), (16, 7), (17, 6), (17, 5)])
        );
        assert_eq!(
            line((17, 5), (4, 2), b),
            rc(&[
                (17, 5),
                (16, 5),
                (15, 5),
                (14, 5),
                (13, 4),
                (12, 4),
                (11, 4),
                (10, 4),
                (9, 3),
                (8, 3),
                (7, 3),
                (6, 3),
                (5, 2),
                (4, 2)
            ])
        );
        assert_eq!(
            line((17, 5), (4, 2), t),
            rc(&[
                (17, 5),
                (16, 5),
                (15, 5),
                (14, 4),
                (13, 4),
                (12, 4),
                (11, 4),
                (10, 3),
                (9, 3),
                (8, 3),
                (7, 3),
                (6, 2),
                (5, 2),
                (4, 2)
            ])
        );
        let straight: Vec<IVec2> = (3..=12).map(|c| IVec2::new(c, 18)).collect();
        assert_eq!(line((18, 3), (18, 12), b), straight);
    }

    proptest! {
        #[test]
        fn lines_end_at_the_target_in_single_steps(
            a in (-20i32..20, -20i32..20), b in (-20i32..20, -20i32..20), book in any::<bool>()
        ) {
            let v = if book { BresenhamVariant::Book } else { BresenhamVariant::Textbook };
            let (a, b) = (IVec2::new(a.0, a.1), IVec2::new(b.0, b.1));
            let cells = bresenham_line(a, b, v);
            prop_assert_eq!(cells[0], a);
            prop_assert_eq!(*cells.last().unwrap(), b);
            prop_assert_eq!(cells.len() as i32, (b - a).abs().max_element() + 1);
            for w in cells.windows(2) {
                prop_assert_eq!((w[1] - w[0]).abs().max_element(), 1);
            }
        }
    }
}
