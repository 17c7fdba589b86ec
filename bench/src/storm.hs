-- storm.hs ITERATIONS: a storm of scheduler events for benchmarks.
--
-- Pairs of threads play MVar ping-pong ITERATIONS times each; half the
-- pairs have their two threads pinned to different capabilities (so every
-- hand-off wakes a thread on the other cap), half share a cap. A few more
-- threads just call yield in a loop. The eventlog is dominated by
-- RUN_THREAD / STOP_THREAD / THREAD_WAKEUP (+ some MIGRATE_THREAD and GC
-- events). Run with +RTS -N2 -l.
import Control.Concurrent
import Control.Monad
import GHC.Conc (labelThread, numCapabilities)
import System.Environment (getArgs)

nPairs, nYielders :: Int
nPairs = 4
nYielders = 2

pinger :: Int -> MVar Int -> MVar Int -> IO ()
pinger n ping pong = forM_ [1 .. n] $ \i -> do
  putMVar ping i
  _ <- takeMVar pong
  return ()

ponger :: Int -> MVar Int -> MVar Int -> IO ()
ponger n ping pong = replicateM_ n $ do
  v <- takeMVar ping
  putMVar pong (v + 1)

yielder :: Int -> IO ()
yielder n = forM_ [1 .. n] $ \_ -> yield

main :: IO ()
main = do
  args <- getArgs
  let n = case args of
        (a : _) -> read a
        [] -> 10000
      caps = max 1 numCapabilities
  dones <- forM [0 .. nPairs - 1] $ \p -> do
    ping <- newEmptyMVar
    pong <- newEmptyMVar
    d1 <- newEmptyMVar
    d2 <- newEmptyMVar
    let capA = p `mod` caps
        capB = if even p then (p + 1) `mod` caps else capA
    t1 <- forkOn capA (pinger n ping pong >> putMVar d1 ())
    t2 <- forkOn capB (ponger n ping pong >> putMVar d2 ())
    labelThread t1 ("ping-" ++ show p)
    labelThread t2 ("pong-" ++ show p)
    return [d1, d2]
  ydones <- forM [0 .. nYielders - 1] $ \y -> do
    d <- newEmptyMVar
    t <- forkIO (yielder n >> putMVar d ())
    labelThread t ("yield-" ++ show y)
    return d
  mapM_ takeMVar (concat dones ++ ydones)
  putStrLn ("storm: " ++ show n ++ " iterations done")
