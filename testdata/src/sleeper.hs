-- sleeper.hs: runs for up to ~10 s, waking every millisecond to post a
-- user message, so that it is still running when generate.sh kills it
-- with SIGKILL after ~0.3 s. The eventlog is therefore incomplete.
import Control.Concurrent
import Control.Monad
import Debug.Trace (traceEventIO)
import GHC.Conc (labelThread)

main :: IO ()
main = do
  done <- newEmptyMVar
  t <- forkIO $ do
    forM_ [1 .. 10000 :: Int] $ \i -> do
      traceEventIO ("tick " ++ show i)
      threadDelay 1000
    putMVar done ()
  labelThread t "ticker"
  takeMVar done
