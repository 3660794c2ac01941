cd /work/runs/div
while pgrep -f "meas.sh div19" > /dev/null; do sleep 5; done
T=2 bash meas.sh ctl19 /work/runs/open/ctl/cycle-019/net.hnet
T=2 bash meas.sh op19 /work/runs/open/op/cycle-019/net.hnet
