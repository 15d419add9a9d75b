//! The report as JUnit XML (`--junit FILE`), which CI systems show as test results: one
//! `<testsuite>` per test file, one `<testcase>` per run (`NAME` for a test's own seed,
//! `NAME [seed S]` in a sweep), a `<failure>` naming the expectations that did not hold with the
//! tick and what was seen, an `<error>` for a run that could not start. Written by `quick-junit`.

use quick_junit::{NonSuccessKind, Report as JUnit, TestCase, TestCaseStatus, TestSuite};

use super::expect::Verdict;
use super::report::{Report, replay_command};

/// The report as a JUnit XML document.
pub fn junit(report: &Report) -> String {
    let mut doc = JUnit::new("tactica test");
    let mut suites: Vec<TestSuite> = Vec::new();
    let sweep = report.plan.seeds.is_some();
    for (job, run) in report.plan.jobs.iter().zip(&report.results) {
        let test = &report.plan.tests[job.test];
        if suites.last().is_none_or(|s| s.name.as_str() != test.file) {
            suites.push(TestSuite::new(test.file.as_str()));
        }
        let name = if sweep { format!("{} [seed {}]", test.name, job.seed) } else { test.name.clone() };
        let status = if let Some(error) = &run.error {
            let mut s = TestCaseStatus::non_success(NonSuccessKind::Error);
            s.set_message("the run could not start").set_description(error.as_str());
            s
        } else {
            let failed: Vec<String> = test
                .expectations
                .iter()
                .zip(&run.verdicts)
                .filter_map(|(e, v)| match v {
                    Verdict::Failed { tick, seen } => {
                        Some(format!("line {}: {}\n  at tick {tick}: {seen}", e.line, e.text))
                    }
                    _ => None,
                })
                .collect();
            if failed.is_empty() {
                TestCaseStatus::success()
            } else {
                let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
                let first = failed[0].lines().next().unwrap_or_default().to_owned();
                let more = if failed.len() > 1 { format!(" (and {} more)", failed.len() - 1) } else { String::new() };
                s.set_message(format!("{first}{more}")).set_type("expectation").set_description(format!(
                    "{}\nreplay: {}",
                    failed.join("\n"),
                    replay_command(&test.file, &test.name, job.seed)
                ));
                s
            }
        };
        let mut case = TestCase::new(name, status);
        case.set_classname(test.file.as_str());
        if let Some(suite) = suites.last_mut() {
            suite.add_test_case(case);
        }
    }
    doc.add_test_suites(suites);
    // Serialising into a String only fails on an I/O error, which a String cannot have.
    doc.to_string().unwrap_or_default()
}
