-- threads.hs: forkIO threads passing values through a pipeline of MVars.
-- Each stage is labelled with labelThread; stages sleep briefly with
-- threadDelay now and then so the log has blocked/woken threads.
-- Deterministic output: the final sum.
import Control.Concurrent
import Control.Monad
import GHC.Conc (labelThread)

nStages, nItems :: Int
nStages = 4
nItems = 400

-- One pipeline stage: take from inp, add the stage number, pass on to out.
stage :: Int -> MVar (Maybe Int) -> MVar (Maybe Int) -> IO ()
stage k inp out = loop
  where
    loop = do
      v <- takeMVar inp
      case v of
        Nothing -> putMVar out Nothing
        Just x -> do
          when (x `mod` 100 == 0) $ threadDelay 2000
          putMVar out (Just (x + k))
          loop

main :: IO ()
main = do
  me <- myThreadId
  labelThread me "main"
  boxes <- replicateM (nStages + 1) newEmptyMVar
  forM_ [0 .. nStages - 1] $ \k -> do
    t <- forkIO (stage k (boxes !! k) (boxes !! (k + 1)))
    labelThread t ("stage-" ++ show k)
  result <- newEmptyMVar
  sink <- forkIO $ do
    let go acc = do
          v <- takeMVar (last boxes)
          case v of
            Nothing -> putMVar result acc
            Just x -> go (acc + x)
    go 0
  labelThread sink "sink"
  forM_ [1 .. nItems] $ \i -> putMVar (head boxes) (Just i)
  putMVar (head boxes) Nothing
  total <- takeMVar result
  putStrLn ("threads: sum = " ++ show (total :: Int))
