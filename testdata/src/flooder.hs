-- flooder.hs: fills GHC 9.0.2's 2 MiB per-capability event buffers while
-- the program runs, so that a SIGKILLed log still holds whole blocks
-- (sleeper.hs posts too little: its killed log is header only).
-- generate.sh runs it with -N2 and kills it (kill -9) once the log file
-- has grown past 4.5 MB; it never ends on its own.
--
-- One flooding thread per capability (forkOn) posts user messages of
-- exactly 1,000 bytes: "flood cap C #N " (N counts that thread's messages
-- from 1, so a reader can spot lost or repeated events) padded with a
-- repeated phrase, so the log gzips very well. After every 32 messages it
-- sleeps 1 ms (threadDelay): that paces each cap at ~10-30 MB/s, keeps the
-- block writes apart in time and adds scheduler and timer-manager events.
-- A ping/pong pair on caps 0 and N-1 hands an MVar back and forth every
-- ~2 ms (cross-cap THREAD_WAKEUP, STOP_THREAD status 7). Allocation adds
-- GC events.
import Control.Concurrent
import Control.Monad
import Debug.Trace (traceEventIO)
import GHC.Conc (labelThread)

msgLen, burst :: Int
msgLen = 1000
burst = 32

padding :: String
padding = take msgLen (cycle "flooding the eventlog ")

message :: Int -> Int -> String
message c i = start ++ drop (length start) padding
  where start = "flood cap " ++ show c ++ " #" ++ show i ++ " "

flood :: Int -> IO ()
flood c = go 1
  where
    go i = do
      forM_ [i .. i + burst - 1] $ \k -> traceEventIO (message c k)
      threadDelay 1000
      go (i + burst)

main :: IO ()
main = do
  n <- getNumCapabilities
  forM_ [0 .. n - 1] $ \c -> do
    t <- forkOn c (flood c)
    labelThread t ("flooder " ++ show c)
  ping <- newEmptyMVar
  pong <- newEmptyMVar
  a <- forkOn 0 $ forever $ do
    putMVar ping ()
    takeMVar pong
    threadDelay 2000
  b <- forkOn (n - 1) $ forever $ takeMVar ping >> putMVar pong ()
  labelThread a "ping"
  labelThread b "pong"
  forever (threadDelay 1000000)
