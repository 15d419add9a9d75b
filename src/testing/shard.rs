//! Splitting the (test × seed) matrix over machines: `--shard I/N` plays every Nth run of the
//! matrix's one order, starting with the Ith, and writes what it found to a file; `--merge`
//! reads the N files and gives the report the whole matrix run on one machine gives. Each file
//! carries the plan and its fingerprint, so files of different matrices (another commit, other
//! seeds) are refused instead of merged.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::report::{Plan, Report};
use super::sweep::RunResult;

/// One share of the matrix: the `index`th of `count` (from 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which share, from 1.
    pub index: u32,
    /// How many shares.
    pub count: u32,
}

impl Shard {
    /// Whether the run at `job` (its place in the matrix) is this shard's.
    pub fn takes(&self, job: usize) -> bool {
        job % self.count as usize == (self.index - 1) as usize
    }

    /// The file name this shard writes: `shard-2-of-4.json`.
    pub fn file_name(&self) -> String {
        format!("shard-{}-of-{}.json", self.index, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// `I/N`, as `2/4`: the second of four shares.
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("`{s}` is not a shard: write I/N, the Ith of N shares counted from 1 (`2/4`)");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count) = (i.trim().parse::<u32>().map_err(|_| bad())?, n.trim().parse::<u32>().map_err(|_| bad())?);
        if count == 0 || index == 0 || index > count {
            return Err(format!("`{s}`: the shard's number must be 1 to {count}"));
        }
        Ok(Shard { index, count })
    }
}

/// What one shard found, as it writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardFile {
    /// The format's version.
    pub format: u32,
    /// Which share.
    pub shard: Shard,
    /// The plan's fingerprint ([`Plan::fingerprint`]).
    pub fingerprint: String,
    /// The whole matrix.
    pub plan: Plan,
    /// This share's results, each with its place in the matrix.
    pub results: Vec<(usize, RunResult)>,
}

/// The format [`ShardFile`]s are written in.
pub const FORMAT: u32 = 1;

/// Why shard files could not be merged.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MergeError {
    /// A file could not be read.
    #[error("{}: {message}", file.display())]
    Read {
        /// The file.
        file: PathBuf,
        /// Why.
        message: String,
    },
    /// Nothing to merge.
    #[error("no shard files (shard-*-of-*.json) under {0}")]
    Empty(String),
    /// Files of different matrices.
    #[error(
        "{} and {} come from different test runs (other tests, test files or seeds); merge the shards of one run",
        first.display(),
        other.display()
    )]
    Mismatch {
        /// A file of one matrix.
        first: PathBuf,
        /// A file of another.
        other: PathBuf,
    },
    /// A share is there twice.
    #[error("shard {index} of {count} is there twice ({})", file.display())]
    Twice {
        /// Its number.
        index: u32,
        /// Out of.
        count: u32,
        /// The second file.
        file: PathBuf,
    },
    /// Shares are missing.
    #[error("shards {} of {count} are missing: the report would leave out their runs", missing.iter().map(u32::to_string).collect::<Vec<_>>().join(", "))]
    Missing {
        /// Their numbers.
        missing: Vec<u32>,
        /// Out of.
        count: u32,
    },
}

/// Writes `file` into `dir` (made if missing) under its [`Shard::file_name`]; returns the path.
pub fn write(dir: &Path, file: &ShardFile) -> std::io::Result<PathBuf> {
    let json = serde_json::to_string(file).map_err(std::io::Error::other)?;
    // Made as every output file is: never through a link in the folder.
    crate::output::OutputDir::create(dir)
        .and_then(|d| d.write_file(&file.shard.file_name(), json.as_bytes()))
        .map_err(std::io::Error::other)
}

/// Merges shard files (folders: every `shard-*-of-*.json` in them) into the report of the whole
/// matrix, or says why they do not make one.
pub fn merge(paths: &[PathBuf]) -> Result<Report, MergeError> {
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| MergeError::Read { file: p.clone(), message: e.to_string() })?
                .flatten()
                .map(|e| e.path())
                .filter(|f| {
                    let name = f.file_name().and_then(|n| n.to_str()).unwrap_or("");
                    name.starts_with("shard-") && name.ends_with(".json")
                })
                .collect();
            found.sort();
            files.extend(found);
        } else {
            files.push(p.clone());
        }
    }
    let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    let Some(first_path) = files.first().cloned() else { return Err(MergeError::Empty(shown.join(", "))) };
    let mut shards: Vec<(PathBuf, ShardFile)> = Vec::new();
    for f in files {
        let text =
            std::fs::read_to_string(&f).map_err(|e| MergeError::Read { file: f.clone(), message: e.to_string() })?;
        let shard: ShardFile = serde_json::from_str(&text).map_err(|e| MergeError::Read {
            file: f.clone(),
            message: format!("not a shard file of this version of tactica ({e})"),
        })?;
        if shard.format != FORMAT {
            return Err(MergeError::Read {
                file: f,
                message: format!("a shard file of format {}, this tactica reads format {FORMAT}", shard.format),
            });
        }
        shards.push((f, shard));
    }
    let (_, first) = &shards[0];
    let count = first.shard.count;
    for (f, s) in &shards[1..] {
        if s.fingerprint != first.fingerprint || s.shard.count != count {
            return Err(MergeError::Mismatch { first: first_path.clone(), other: f.clone() });
        }
    }
    let mut seen = vec![false; count as usize];
    for (f, s) in &shards {
        let slot = &mut seen[(s.shard.index - 1) as usize];
        if *slot {
            return Err(MergeError::Twice { index: s.shard.index, count, file: f.clone() });
        }
        *slot = true;
    }
    let missing: Vec<u32> = (1..=count).filter(|i| !seen[(*i - 1) as usize]).collect();
    if !missing.is_empty() {
        return Err(MergeError::Missing { missing, count });
    }
    let plan = first.plan.clone();
    let mut results: Vec<Option<RunResult>> = vec![None; plan.jobs.len()];
    for (_, s) in shards {
        for (i, r) in s.results {
            if let Some(slot) = results.get_mut(i) {
                *slot = Some(r);
            }
        }
    }
    let results: Vec<RunResult> = results
        .into_iter()
        .map(|r| {
            r.unwrap_or_else(|| RunResult {
                verdicts: Vec::new(),
                ticks_played: 0,
                error: Some("no shard file holds this run".into()),
            })
        })
        .collect();
    Ok(Report { plan, results })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_read_and_share_the_matrix_out() {
        let s: Shard = "2/4".parse().unwrap();
        assert_eq!((s.index, s.count, s.file_name().as_str()), (2, 4, "shard-2-of-4.json"));
        assert!("0/4".parse::<Shard>().is_err() && "5/4".parse::<Shard>().is_err() && "2-4".parse::<Shard>().is_err());
        let all: Vec<Shard> = (1..=4).map(|i| Shard { index: i, count: 4 }).collect();
        for job in 0..37 {
            assert_eq!(all.iter().filter(|s| s.takes(job)).count(), 1, "job {job} belongs to one shard");
        }
    }
}
