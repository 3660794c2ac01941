cd /work/runs/div
while pgrep -f "queue.sh" > /dev/null; do sleep 5; done
for n in boot18 div19 ctl19 op19; do bash /work/main/docs/runs/ens-e/measure.sh $n; done
