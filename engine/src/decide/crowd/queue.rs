//! The open-loop action queue (S4:766–784): tasks run in order without watching the world; a
//! failing task flushes the queue and queues the script's fallback; an empty queue asks action
//! selection for more.

use std::collections::VecDeque;

/// A queue of tasks with the script they came from.
#[derive(Debug, Clone, PartialEq)]
pub struct OpenLoopQueue<T> {
    tasks: VecDeque<T>,
    script: Option<u16>,
}

impl<T> Default for OpenLoopQueue<T> {
    fn default() -> Self {
        OpenLoopQueue { tasks: VecDeque::new(), script: None }
    }
}

impl<T: Copy> OpenLoopQueue<T> {
    /// Replaces the queue with a script's tasks.
    pub fn start(&mut self, script: u16, tasks: impl IntoIterator<Item = T>) {
        self.tasks.clear();
        self.tasks.extend(tasks);
        self.script = Some(script);
    }

    /// The running task.
    pub fn front(&self) -> Option<T> {
        self.tasks.front().copied()
    }

    /// The running task, to update its progress.
    pub fn front_mut(&mut self) -> Option<&mut T> {
        self.tasks.front_mut()
    }

    /// Finishes the running task; when the last one finishes the script is over.
    pub fn complete(&mut self) {
        self.tasks.pop_front();
        if self.tasks.is_empty() {
            self.script = None;
        }
    }

    /// The running task failed: flush everything and return the script that was running, so the
    /// caller can queue its fallback.
    pub fn fail(&mut self) -> Option<u16> {
        self.tasks.clear();
        self.script.take()
    }

    /// Whether there is nothing to do (time for action selection).
    pub fn is_empty(&self) -> bool {
        self.tasks.is_empty()
    }

    /// How many tasks are queued.
    pub fn len(&self) -> usize {
        self.tasks.len()
    }

    /// The script the tasks came from.
    pub fn script(&self) -> Option<u16> {
        self.script
    }

    /// Every queued task, front first.
    pub fn iter(&self) -> impl Iterator<Item = &T> {
        self.tasks.iter()
    }
}
