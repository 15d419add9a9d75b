# kind: behaviour
let steps = 0;
while (steps < 3) { steps = steps + 1; }
repeat steps move(1, 0);
# expect-action: follow_path
