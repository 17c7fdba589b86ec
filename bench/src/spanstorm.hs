-- spanstorm.hs ITERATIONS: the user's own spans for benchmarks of
-- `evtool stats --spans`.
--
-- Pairs of threads play MVar ping-pong ITERATIONS times each, as storm.hs
-- does, and bracket each round with traceEventIO "START round" / "STOP
-- round" (a span per round and thread, nested in a "batch" span every 100
-- rounds, with a traceMarkerIO "tick" between batches). The eventlog mixes
-- USER_MSG (19) and USER_MARKER (58) events with the scheduler's
-- RUN_THREAD / STOP_THREAD / THREAD_WAKEUP. Run with +RTS -N2 -l.
import Control.Concurrent
import Control.Monad
import Debug.Trace (traceEventIO, traceMarkerIO)
import System.Environment (getArgs)

nPairs :: Int
nPairs = 4

player :: Int -> MVar Int -> MVar Int -> IO ()
player n give take_ = forM_ [1 .. n] $ \i -> do
  when (i `mod` 100 == 1) $ traceEventIO "START batch"
  traceEventIO "START round"
  putMVar give i
  _ <- takeMVar take_
  traceEventIO "STOP round"
  when (i `mod` 100 == 0) $ traceEventIO "STOP batch" >> traceMarkerIO "tick"

main :: IO ()
main = do
  args <- getArgs
  let n = case args of
        (a : _) -> read a
        [] -> 10000
  dones <- forM [0 .. nPairs - 1] $ \p -> do
    ping <- newEmptyMVar
    pong <- newEmptyMVar
    done <- newEmptyMVar
    _ <- forkOn p $ player n ping pong >> putMVar done ()
    _ <- forkOn (p + 1) $ do
      replicateM_ n $ takeMVar ping >>= putMVar pong . (+ 1)
      putMVar done ()
    return [done, done]
  mapM_ takeMVar (concat dones)
