-- worker.hs NAME: a small threaded job for the merge tests. Several copies
-- run at the same time (started ~50 ms apart) and each writes its own
-- eventlog. It forks a few labelled workers that hand results back
-- through an MVar and posts user messages naming itself.
import Control.Concurrent
import Control.Monad
import Debug.Trace (traceEventIO)
import GHC.Conc (labelThread)
import System.Environment (getArgs)

work :: Int -> Int
work k = sum [ (x * k) `mod` 13 | x <- [1 .. 200000 :: Int] ]

main :: IO ()
main = do
  args <- getArgs
  let name = case args of
        (n : _) -> n
        [] -> "worker"
  traceEventIO ("worker " ++ name ++ " start")
  results <- newEmptyMVar
  forM_ [1 .. 4 :: Int] $ \k -> do
    t <- forkIO $ do
      threadDelay (10000 * k)
      let r = work k
      r `seq` putMVar results (k, r)
    labelThread t (name ++ "-" ++ show k)
  rs <- replicateM 4 (takeMVar results)
  threadDelay 150000
  traceEventIO ("worker " ++ name ++ " done: " ++ show (sum (map snd rs)))
  putStrLn ("worker " ++ name ++ " done")
