# parts.py CYCLE_DIR [WELLS_A_DEPTH [FIRST_PIECE]]: the refine parts of a
# cycle still refining, by 50 pieces: deciles of x (the network's value)
# and y (its lookahead's), the share of dead lookaheads, and their
# correlation.
import struct, sys, glob
import numpy as np
xs=[];ys=[]
for p in sorted(glob.glob(sys.argv[1]+'/refine-part-*.htrp')):
    b=open(p,'rb').read()
    body=b[8:-4]
    n=struct.unpack('<Q',body[8:16])[0]
    a=np.frombuffer(body[24:24+n*8],dtype='<f4').reshape(-1,2)
    xs.append(a[:,0]);ys.append(a[:,1])
x=np.concatenate(xs);y=np.concatenate(ys)
per=int(sys.argv[2]) if len(sys.argv)>2 else 512
start=int(sys.argv[3]) if len(sys.argv)>3 else 419
band=50*per
print("wells",len(x))
for i in range(0,len(x),band):
    xx=x[i:i+band];yy=y[i:i+band]
    q=lambda v,f: np.quantile(v,f)
    print(f"pieces {start+i//per:5}-{start+(i+band)//per:5}: x d1/5/9 {q(xx,.1):+.3f} {q(xx,.5):+.3f} {q(xx,.9):+.3f}  y d1/5/9 {q(yy,.1):+.3f} {q(yy,.5):+.3f} {q(yy,.9):+.3f}  y=-1 {np.mean(yy<=-0.9999):.3f} y<-.99 {np.mean(yy<-0.99):.3f} corr {np.corrcoef(xx,yy)[0,1]:.3f}")
t=x+0.5*(y-x)
print("targets moved half way (step 0.5, the recipe's): min %.4f max %.4f, then scaled to [-1, 1]"%(t.min(),t.max()))
