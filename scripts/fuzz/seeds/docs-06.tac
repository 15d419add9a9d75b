# kind: behaviour
# given: state = kPatrol
If (creature.state == kPatrol)
  begin
    move(0,1); move(0,1); move(-1,0); move(0,-1); move(0,-1); move(1,0);
  end
# expect-action: follow_path
