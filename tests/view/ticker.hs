-- ticker.hs: a program whose eventlog grows for about two seconds, for
-- evtool view's live test: user events in bursts between short sleeps, so
-- that the RTS flushes full buffers into the FIFO while it runs.
import Control.Concurrent (threadDelay)
import Control.Monad (forM_)
import Debug.Trace (traceEventIO, traceMarkerIO)

main :: IO ()
main = forM_ [1 .. 40 :: Int] $ \i -> do
  traceMarkerIO ("tick " ++ show i)
  forM_ [1 .. 4000 :: Int] $ \j -> traceEventIO ("burst " ++ show i ++ " event " ++ show j)
  threadDelay 50000
