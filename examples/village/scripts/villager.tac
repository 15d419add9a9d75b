// A villager follows its daily schedule: the block for the hour names an activity, and the
// open-loop action queue walks it step by step (a closed tavern sends it home grumbling).
QueueRun("acts", ScheduleTask("day", HourOfDay()));
