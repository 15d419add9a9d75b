//! Cellular automata over category grids: a double-buffered runner and the chapter's rules —
//! Conway's Life, threshold and proportion rules (safe areas, crime), the fill rule, Otostaz city
//! growth and RTS base building (000 §6.2.8).

use super::layer::Layer;

/// The categories of a cell's neighbours (up to 8: 5 on an edge, 3 in a corner; nothing lives
/// outside the grid).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Neighbours {
    cats: [u8; 8],
    len: usize,
}

impl Neighbours {
    /// How many neighbours the cell has (8, 5 or 3 on a grid of at least 2 × 2).
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the cell has no neighbours (a 1 × 1 grid).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The neighbours' categories.
    pub fn categories(&self) -> &[u8] {
        &self.cats[..self.len]
    }

    /// How many neighbours are in category `cat`.
    pub fn count(&self, cat: u8) -> usize {
        self.categories().iter().filter(|&&c| c == cat).count()
    }

    /// How many neighbours satisfy `pred`.
    pub fn count_where(&self, pred: impl Fn(u8) -> bool) -> usize {
        self.categories().iter().filter(|&&c| pred(c)).count()
    }

    /// The share of neighbours in category `cat` (0 when there are none).
    pub fn fraction(&self, cat: u8) -> f32 {
        if self.len == 0 { 0.0 } else { self.count(cat) as f32 / self.len as f32 }
    }
}

/// An update rule: the next category of a cell from its current one and its neighbours'.
/// Rules must depend only on these (the previous iteration), so any visiting order gives the
/// same result (L1513).
pub trait Rule {
    /// The cell's category in the next iteration.
    fn next(&self, current: u8, neighbours: &Neighbours) -> u8;
}

impl<F: Fn(u8, &Neighbours) -> u8> Rule for F {
    fn next(&self, current: u8, neighbours: &Neighbours) -> u8 {
        self(current, neighbours)
    }
}

/// A grid of categories with a second buffer for the next iteration (the chapter's two copies,
/// alternated, L1523-1524).
#[derive(Debug, Clone, PartialEq)]
pub struct Automaton {
    width: u32,
    height: u32,
    current: Vec<u8>,
    next: Vec<u8>,
}

impl Automaton {
    /// An automaton over row-major `cells`; `None` when the length is not `width × height`.
    pub fn new(width: u32, height: u32, cells: Vec<u8>) -> Option<Self> {
        (cells.len() == width as usize * height as usize).then(|| Automaton {
            width,
            height,
            next: cells.clone(),
            current: cells,
        })
    }

    /// An automaton from rows of characters, each mapped to a category by `legend`; `None` for
    /// ragged rows.
    pub fn from_text(text: &str, legend: impl Fn(char) -> u8) -> Option<Self> {
        let rows: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
        let width = rows.first().map_or(0, |r| r.chars().count());
        if rows.iter().any(|r| r.chars().count() != width) {
            return None;
        }
        let cells = rows.iter().flat_map(|r| r.chars().map(&legend)).collect();
        Self::new(u32::try_from(width).ok()?, u32::try_from(rows.len()).ok()?, cells)
    }

    /// The current categories, row-major.
    pub fn cells(&self) -> &[u8] {
        &self.current
    }

    /// Width in cells.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in cells.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The grid as text, each category drawn by `draw`.
    pub fn to_text(&self, draw: impl Fn(u8) -> char) -> String {
        let mut s = String::new();
        for row in self.current.chunks(self.width.max(1) as usize) {
            s.extend(row.iter().map(|&c| draw(c)));
            s.push('\n');
        }
        s
    }

    /// The neighbours of `(x, y)` in the current iteration.
    pub fn neighbours(&self, x: u32, y: u32) -> Neighbours {
        let mut n = Neighbours { cats: [0; 8], len: 0 };
        for dy in -1i64..=1 {
            for dx in -1i64..=1 {
                let (nx, ny) = (i64::from(x) + dx, i64::from(y) + dy);
                if (dx, dy) == (0, 0) || nx < 0 || ny < 0 || nx >= i64::from(self.width) || ny >= i64::from(self.height)
                {
                    continue;
                }
                n.cats[n.len] = self.current[ny as usize * self.width as usize + nx as usize];
                n.len += 1;
            }
        }
        n
    }

    /// One iteration of `rule` over every cell; returns how many cells changed.
    pub fn step(&mut self, rule: &impl Rule) -> usize {
        let mut changed = 0;
        for y in 0..self.height {
            for x in 0..self.width {
                let i = y as usize * self.width as usize + x as usize;
                let v = rule.next(self.current[i], &self.neighbours(x, y));
                changed += usize::from(v != self.current[i]);
                self.next[i] = v;
            }
        }
        std::mem::swap(&mut self.current, &mut self.next);
        changed
    }

    /// Runs until an iteration changes nothing, at most `max_steps` iterations; returns the number
    /// of iterations run when it settled, `None` if it had not (an oscillating or growing rule).
    pub fn run_until_stable(&mut self, rule: &impl Rule, max_steps: usize) -> Option<usize> {
        for i in 0..max_steps {
            if self.step(rule) == 0 {
                return Some(i + 1);
            }
        }
        None
    }
}

/// Sorts real values into categories (Fig 6.19's third copy): a value's category is the number of
/// `thresholds` (ascending) it reaches, so two thresholds give categories 0, 1 and 2.
pub fn categorise(layer: &Layer, thresholds: &[f32]) -> Automaton {
    let cells = layer.values().iter().map(|&v| thresholds.iter().filter(|&&t| v >= t).count().min(255) as u8).collect();
    Automaton { width: layer.width(), height: layer.height(), next: Vec::clone(&cells), current: cells }
}

/// Turns categories back into reals: category `c` becomes `values[c]` (0 beyond the list).
pub fn to_layer(automaton: &Automaton, values: &[f32]) -> Layer {
    let v = automaton.cells().iter().map(|&c| values.get(c as usize).copied().unwrap_or(0.0)).collect();
    Layer::from_values(automaton.width, automaton.height, v).unwrap_or_else(|| Layer::new(0, 0))
}

/// Conway's Life: category 1 alive, 0 dead, 8 neighbours, nothing alive outside the grid.
///
/// The translated text (L1537) says a live cell with "more than **4**" live neighbours dies; that
/// is a misprint (the 000 digest flags it): Conway's rule, and the 2-3 survival band the same
/// passage describes, kill a live cell with more than **3**. This follows Conway.
#[derive(Debug, Clone, Copy, Default)]
pub struct Life;

impl Rule for Life {
    fn next(&self, current: u8, n: &Neighbours) -> u8 {
        let alive = n.count(1);
        u8::from(matches!((current, alive), (1, 2 | 3) | (0, 3)))
    }
}

/// "A cell becomes `category` when enough of its neighbours are `category`": the chapter's safe-area,
/// crime and fill rules (L1516-1521, L1540, L1545).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Threshold {
    /// The category that spreads.
    pub category: u8,
    /// Neighbours of `category` needed by a cell with all 8 neighbours.
    pub interior: usize,
    /// For cells with fewer neighbours (edges, corners): the share needed instead; `None` uses
    /// the absolute count `interior` everywhere.
    pub edge_share: Option<f32>,
    /// What a cell of `category` becomes when it no longer qualifies; `None` keeps it (a rule
    /// that only grows, like the fill rule).
    pub otherwise: Option<u8>,
}

impl Threshold {
    /// Safe areas (L1545): safe iff at least 4 of 8 neighbours are safe, or 50% on edges; unsafe
    /// pockets fill in and thin spikes are cut back, so safe regions become more convex.
    pub fn safe_area(safe: u8, unsafe_: u8) -> Self {
        Threshold { category: safe, interior: 4, edge_share: Some(0.5), otherwise: Some(unsafe_) }
    }

    /// A proportion rule (L1521): a cell joins `category` when at least `share` of its neighbours
    /// are in it, whatever their number (on the interior, `⌈8 · share⌉` of 8).
    pub fn proportion(category: u8, share: f32, otherwise: Option<u8>) -> Self {
        let interior = (8.0 * share).ceil().max(0.0) as usize;
        Threshold { category, interior, edge_share: Some(share), otherwise }
    }

    /// An absolute count (L1519, L1540): "3 adjacent high-crime areas → high crime"; "alive with at
    /// least 3 live neighbours", which fills the map quickly and is very stable.
    pub fn count(category: u8, count: usize) -> Self {
        Threshold { category, interior: count, edge_share: None, otherwise: None }
    }
}

impl Rule for Threshold {
    fn next(&self, current: u8, n: &Neighbours) -> u8 {
        let have = n.count(self.category);
        let ok = match self.edge_share {
            Some(share) if n.len() < 8 => !n.is_empty() && have as f32 >= share * n.len() as f32 - 1e-6,
            _ => have >= self.interior,
        };
        match (ok, self.otherwise) {
            (true, _) => self.category,
            (false, Some(other)) if current == self.category => other,
            _ => current,
        }
    }
}

/// Otostaz city growth (L1550-1551). Categories: [`Otostaz::EMPTY`], [`Otostaz::WATER`],
/// [`Otostaz::TREES`], and `Otostaz::storeys(n)` for an `n`-storey building.
///
/// An empty plot next to water and trees gets a one-storey building; a plot (empty or built)
/// bordering two buildings of `n − 1` storeys, or three of `n − 2`, gets `n` storeys; buildings
/// never come down, even when their neighbours do, which keeps the pattern stable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Otostaz {
    /// The tallest building allowed.
    pub max_storeys: u8,
}

impl Otostaz {
    /// An empty plot.
    pub const EMPTY: u8 = 0;
    /// A water square.
    pub const WATER: u8 = 1;
    /// A square of trees.
    pub const TREES: u8 = 2;

    /// The category of an `n`-storey building (`n ≥ 1`).
    pub const fn storeys(n: u8) -> u8 {
        2 + n
    }

    fn height(cat: u8) -> u8 {
        cat.saturating_sub(2)
    }
}

impl Rule for Otostaz {
    fn next(&self, current: u8, n: &Neighbours) -> u8 {
        if current == Self::WATER || current == Self::TREES {
            return current;
        }
        let mine = Self::height(current);
        let mut best = mine;
        if current == Self::EMPTY && n.count(Self::WATER) >= 1 && n.count(Self::TREES) >= 1 {
            best = best.max(1);
        }
        for storeys in 2..=self.max_storeys {
            let of = |h: u8| n.count_where(|c| c > Self::TREES && Self::height(c) == h);
            if of(storeys - 1) >= 2 || (storeys >= 3 && of(storeys - 2) >= 3) {
                best = best.max(storeys);
            }
        }
        if best > mine { Self::storeys(best) } else { current }
    }
}

/// RTS base building (L1552-1557). Only empty cells are built on, and nothing is torn down.
#[derive(Debug, Clone, Copy, Default)]
pub struct RtsBase;

impl RtsBase {
    /// An empty location.
    pub const EMPTY: u8 = 0;
    /// Raw materials.
    pub const RESOURCE: u8 = 1;
    /// A defensive building.
    pub const DEFENSIVE: u8 = 2;
    /// A base building (training, research, manufacturing).
    pub const BASE: u8 = 3;
    /// The first of three advanced-building types (`ADVANCED`, `ADVANCED + 1`, `ADVANCED + 2`).
    pub const ADVANCED: u8 = 4;
    /// A very valuable facility.
    pub const VALUABLE: u8 = 7;

    fn is_advanced(c: u8) -> bool {
        (Self::ADVANCED..Self::ADVANCED + 3).contains(&c)
    }
}

impl Rule for RtsBase {
    fn next(&self, current: u8, n: &Neighbours) -> u8 {
        if current != Self::EMPTY {
            return current;
        }
        if n.count_where(Self::is_advanced) >= 2 {
            return Self::VALUABLE;
        }
        if n.count(Self::BASE) >= 2 {
            // A type none of the neighbours has, so one attack cannot take out a whole technology.
            return (Self::ADVANCED..Self::ADVANCED + 3).find(|&t| n.count(t) == 0).unwrap_or(Self::ADVANCED);
        }
        if n.count(Self::DEFENSIVE) >= 2 {
            return Self::BASE;
        }
        if n.count(Self::RESOURCE) >= 1 {
            return Self::DEFENSIVE;
        }
        current
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn life(text: &str) -> Automaton {
        Automaton::from_text(text, |c| u8::from(c == '#')).unwrap()
    }

    fn draw(a: &Automaton) -> String {
        a.to_text(|c| if c == 1 { '#' } else { '.' })
    }

    #[test]
    fn neighbour_counts_are_8_5_3() {
        let a = life("....\n....\n....\n");
        assert_eq!(a.neighbours(1, 1).len(), 8);
        assert_eq!(a.neighbours(2, 0).len(), 5);
        assert_eq!(a.neighbours(3, 2).len(), 3);
    }

    #[test]
    fn conway_rules_one_by_one() {
        // (1) fewer than 2 live neighbours: dies.
        let mut a = life(".....\n.#...\n...#.\n.....\n");
        a.step(&Life);
        assert_eq!(draw(&a), ".....\n.....\n.....\n.....\n");
        // (2) more than 3: dies — the centre has 4 live neighbours (the printed "> 4" would keep it).
        let mut a = life("#.#\n.#.\n#.#\n");
        a.step(&Life);
        assert_eq!(a.cells()[4], 0);
        // (3) 2 or 3: lives; a block is a still life.
        let mut a = life("....\n.##.\n.##.\n....\n");
        assert_eq!(a.run_until_stable(&Life, 5), Some(1));
        // (4) a dead cell with exactly 3 comes alive: the blinker oscillates, even on the edge.
        let mut a = life("###\n...\n...\n");
        a.step(&Life);
        assert_eq!(draw(&a), ".#.\n.#.\n...\n");
        let mut a = life(".....\n..#..\n..#..\n..#..\n.....\n");
        a.step(&Life);
        assert_eq!(draw(&a), ".....\n.....\n.###.\n.....\n.....\n");
        assert_eq!(a.run_until_stable(&Life, 10), None, "oscillators never settle");
    }

    #[test]
    fn safe_areas_fill_pockets_and_cut_spikes() {
        let legend = |c| u8::from(c == 'S');
        let mut a = Automaton::from_text("SSSS\nS.SS\nSSSS\nSSSS\n", legend).unwrap();
        a.step(&Threshold::safe_area(1, 0));
        // The pocket (1,1) has 8 safe neighbours → safe; every edge cell keeps ≥ 50%.
        assert_eq!(a.to_text(|c| if c == 1 { 'S' } else { '.' }), "SSSS\nSSSS\nSSSS\nSSSS\n");
        // On edges the share counts: a corner with 2 of 3 safe neighbours (67%) is safe, an edge
        // cell with 1 of 5 (20%) is not, an interior cell with 3 of 8 is not.
        let a = Automaton::from_text("SS..\nS...\n....\n", legend).unwrap();
        let rule = Threshold::safe_area(1, 0);
        assert_eq!(rule.next(0, &a.neighbours(0, 0)), 1);
        assert_eq!(rule.next(0, &a.neighbours(2, 0)), 0);
        assert_eq!(rule.next(1, &a.neighbours(1, 1)), 0);
        // A one-cell-wide spike of safe cells has at most 2 safe neighbours → it is cut back.
        let mut a = Automaton::from_text(".......\n.......\n..SSS..\n.......\n.......\n", legend).unwrap();
        a.step(&Threshold::safe_area(1, 0));
        assert!(a.cells().iter().all(|&c| c == 0));
    }

    #[test]
    fn proportion_and_count_rules() {
        // A corner with 1 high-crime neighbour of 3 (33% ≥ 25%) turns high-crime; an interior cell
        // with 1 of 8 (12.5%) does not.
        let rule = Threshold::proportion(1, 0.25, None);
        assert_eq!(rule.interior, 2);
        let a = Automaton::from_text("...\n.#.\n...\n", |c| u8::from(c == '#')).unwrap();
        assert_eq!(rule.next(0, &a.neighbours(0, 0)), 1);
        let a = Automaton::from_text("....\n.#..\n....\n....\n", |c| u8::from(c == '#')).unwrap();
        assert_eq!(rule.next(0, &a.neighbours(2, 2)), 0);
        // City rule: 3 adjacent high-crime areas → high crime, 2 are not enough.
        let city = Threshold::count(1, 3);
        let a = Automaton::from_text("##.\n...\n#..\n", |c| u8::from(c == '#')).unwrap();
        assert_eq!(city.next(0, &a.neighbours(1, 1)), 1);
        assert_eq!(city.next(0, &a.neighbours(2, 1)), 0);
        // "Alive with ≥ 3 neighbours" fills quickly and then stays put.
        // From one live column it fills a column every two steps.
        let mut a = life("#.....\n#.....\n#.....\n#.....\n");
        let steps = a.run_until_stable(&Threshold::count(1, 3), 30).unwrap();
        assert!(steps <= 12, "{steps}");
        assert!(a.cells().iter().all(|&c| c == 1), "{}", draw(&a));
    }

    #[test]
    fn otostaz_grows_a_city_that_never_shrinks() {
        let legend = |c| match c {
            '~' => Otostaz::WATER,
            'T' => Otostaz::TREES,
            '1' => Otostaz::storeys(1),
            _ => Otostaz::EMPTY,
        };
        let rule = Otostaz { max_storeys: 4 };
        let mut a = Automaton::from_text("~.T\n...\n...\n", legend).unwrap();
        a.step(&rule);
        // Only cells touching both water and trees get a one-storey building.
        assert_eq!(a.cells()[1], Otostaz::storeys(1));
        assert_eq!(a.cells()[4], Otostaz::storeys(1));
        assert_eq!(a.cells()[3], Otostaz::EMPTY);
        // Two one-storey buildings raise a two-storey one beside both.
        let a = Automaton::from_text("1.1\n...\n", legend).unwrap();
        assert_eq!(rule.next(Otostaz::EMPTY, &a.neighbours(1, 0)), Otostaz::storeys(2));
        assert_eq!(rule.next(Otostaz::EMPTY, &a.neighbours(1, 1)), Otostaz::storeys(2));
        // Three one-storey neighbours suffice for three storeys.
        let a = Automaton::from_text("111\n...\n", legend).unwrap();
        assert_eq!(rule.next(Otostaz::EMPTY, &a.neighbours(1, 1)), Otostaz::storeys(3));
        // Never downgrade: a tall building among empty plots stays.
        let a = Automaton::from_text("...\n...\n", legend).unwrap();
        assert_eq!(rule.next(Otostaz::storeys(3), &a.neighbours(1, 1)), Otostaz::storeys(3));
    }

    #[test]
    fn rts_base_building_rules() {
        let legend = |c| match c {
            'R' => RtsBase::RESOURCE,
            'D' => RtsBase::DEFENSIVE,
            'B' => RtsBase::BASE,
            'A' => RtsBase::ADVANCED,
            _ => RtsBase::EMPTY,
        };
        let a = Automaton::from_text("R..\n...\n", legend).unwrap();
        assert_eq!(RtsBase.next(0, &a.neighbours(1, 0)), RtsBase::DEFENSIVE, "next to raw materials");
        let a = Automaton::from_text("D.D\n...\n", legend).unwrap();
        assert_eq!(RtsBase.next(0, &a.neighbours(1, 0)), RtsBase::BASE);
        let a = Automaton::from_text("B.B\nA..\n", legend).unwrap();
        assert_eq!(RtsBase.next(0, &a.neighbours(1, 0)), RtsBase::ADVANCED + 1, "a type no neighbour has");
        let a = Automaton::from_text("A.A\n...\n", legend).unwrap();
        assert_eq!(RtsBase.next(0, &a.neighbours(1, 0)), RtsBase::VALUABLE);
        assert_eq!(RtsBase.next(RtsBase::DEFENSIVE, &a.neighbours(1, 0)), RtsBase::DEFENSIVE, "built stays built");
    }

    #[test]
    fn categorise_and_back() {
        let l = Layer::from_rows(&[&[0.1, 0.5, 0.9]]).unwrap();
        let a = categorise(&l, &[0.3, 0.8]);
        assert_eq!(a.cells(), &[0, 1, 2]);
        assert_eq!(to_layer(&a, &[0.0, 10.0]).values(), &[0.0, 10.0, 0.0]);
    }

    /// Life written the obvious way, for comparison.
    fn naive_life(w: usize, h: usize, cells: &[u8]) -> Vec<u8> {
        let mut out = vec![0; cells.len()];
        for y in 0..h {
            for x in 0..w {
                let mut n = 0;
                for yy in y.saturating_sub(1)..=(y + 1).min(h - 1) {
                    for xx in x.saturating_sub(1)..=(x + 1).min(w - 1) {
                        if (xx, yy) != (x, y) {
                            n += cells[yy * w + xx];
                        }
                    }
                }
                let alive = cells[y * w + x] == 1;
                out[y * w + x] = u8::from(n == 3 || (alive && n == 2));
            }
        }
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn life_matches_the_obvious_version(w in 1usize..12, h in 1usize..12, seed in proptest::collection::vec(0u8..2, 144), steps in 1usize..6) {
            let mut cells = seed[..w * h].to_vec();
            let mut a = Automaton::new(w as u32, h as u32, cells.clone()).unwrap();
            for _ in 0..steps {
                a.step(&Life);
                cells = naive_life(w, h, &cells);
                prop_assert_eq!(a.cells(), &cells[..]);
            }
        }
    }
}
