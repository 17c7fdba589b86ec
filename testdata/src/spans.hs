-- spans.hs: the user's own phases, bracketed as ghc-events-analyze reads
-- them (traceEventIO "START name" / "STOP name", event 19) and marked
-- with traceMarkerIO (event 58), around known sleeps and computations.
-- Each bracketed phase also posts what the program measured itself with
-- GHC.Clock (the clock the RTS stamps events with):
-- "measured NAME NS" right after its STOP, so that a test can compare
-- evtool's spans with the program's own figures.
--
--   ./spans MS      sleeps of MS milliseconds (20 in spans-a, 30 in spans-b)
import Control.Concurrent
import Control.Monad
import Debug.Trace (traceEventIO, traceMarkerIO)
import GHC.Clock (getMonotonicTimeNSec)
import System.Environment (getArgs)

-- Runs `act` between START name and STOP name, then posts the time it
-- measured between the two.
span_ :: String -> IO a -> IO a
span_ name act = do
  t0 <- getMonotonicTimeNSec
  traceEventIO ("START " ++ name)
  r <- act
  traceEventIO ("STOP " ++ name)
  t1 <- getMonotonicTimeNSec
  traceEventIO ("measured " ++ name ++ " " ++ show (t1 - t0))
  return r

work :: Int -> Int
work n = sum [ (i * i) `mod` 7 | i <- [1 .. n] ]

main :: IO ()
main = do
  [ms] <- map read <$> getArgs
  done <- newEmptyMVar
  -- A second thread with spans of its own, the same name as main's.
  _ <- forkIO $ do
    forM_ [1 .. 3 :: Int] $ \_ -> span_ "job" (threadDelay 10000)
    putMVar done ()
  span_ "outer" $ do
    forM_ [1 .. 5 :: Int] $ \_ -> span_ "sleep" (threadDelay (ms * 1000))
    forM_ [1 .. 4 :: Int] $ \i -> do
      s <- span_ "work" (let s = work (200000 * i) in s `seq` return s)
      s `seq` return ()
  -- Overlapping names on one thread: a opens, b opens, a closes, b closes.
  traceEventIO "START a"
  threadDelay 2000
  traceEventIO "START b"
  threadDelay 2000
  traceEventIO "STOP a"
  threadDelay 2000
  traceEventIO "STOP b"
  -- Nested spans of one name: the inner one closes first.
  traceEventIO "START nest"
  traceEventIO "START nest"
  threadDelay 3000
  traceEventIO "STOP nest"
  threadDelay 3000
  traceEventIO "STOP nest"
  -- Markers 5 ms apart: four spans "frame" between consecutive ones.
  forM_ [1 .. 5 :: Int] $ \_ -> traceMarkerIO "frame" >> threadDelay 5000
  -- A STOP without its START and a START never stopped.
  traceEventIO "STOP orphan"
  traceEventIO "START leak"
  takeMVar done
  putStrLn "spans: done"
