-- heap.hs: run with +RTS -hT -i0.01 so the RTS writes heap profile
-- samples (events 160-165) into the eventlog. It builds and keeps a few
-- structures of different closure types for ~0.2 s so that several
-- samples are taken.
import qualified Data.Map.Strict as M
import Data.List (foldl')
import Data.IORef
import Control.Monad

main :: IO ()
main = do
  ref <- newIORef (M.empty :: M.Map Int String)
  lists <- newIORef ([] :: [[Int]])
  forM_ [1 .. 90 :: Int] $ \r -> do
    modifyIORef' ref (\m -> foldl' (\mm k -> M.insert (r * 10000 + k) (show k) mm) m [1 .. 1500])
    modifyIORef' lists (\ls -> let l = [r .. r + 2000] in sum l `seq` (l : take 20 ls))
    -- some garbage too, to make the run take a little time
    let g = foldl' (+) 0 [ x `mod` (r + 3) | x <- [1 .. 500000 :: Int] ]
    g `seq` return ()
  m <- readIORef ref
  ls <- readIORef lists
  putStrLn ("heap: " ++ show (M.size m) ++ " " ++ show (length ls))
