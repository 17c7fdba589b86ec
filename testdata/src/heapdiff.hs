-- heapdiff.hs VERSION: two versions of one program whose heaps differ in
-- a known band, for comparing heap profiles (evtool stats A B, report
-- A B). Both build and keep the same Map of Int to String for ~0.25 s;
-- version "b" also keeps a list of 20,000 boxed Doubles (made by
-- extraDoubles), which version "a" never makes: in -hT its band is the
-- closure type D# (ghc-prim:GHC.Types.D#), in -hy the type Double, in -hc
-- the cost centre extraDoubles.
import qualified Data.Map.Strict as M
import Data.IORef
import Data.List (foldl')
import Control.Monad
import System.Environment (getArgs)

extraDoubles :: Int -> [Double]
extraDoubles n = [ fromIntegral i * 1.5 | i <- [1 .. n] ]

buildMap :: Int -> M.Map Int String -> M.Map Int String
buildMap r m = foldl' (\mm k -> M.insert (r * 10000 + k) (show k) mm) m [1 .. 800]

main :: IO ()
main = do
  [version] <- getArgs
  ref <- newIORef M.empty
  extra <- newIORef []
  when (version == "b") $ do
    let ds = extraDoubles 20000
    sum ds `seq` writeIORef extra ds
  forM_ [1 .. 40 :: Int] $ \r -> do
    modifyIORef' ref (buildMap r)
    let g = foldl' (+) 0 [ x `mod` (r + 3) | x <- [1 .. 300000 :: Int] ]
    g `seq` return ()
  m <- readIORef ref
  ds <- readIORef extra
  putStrLn ("heapdiff " ++ version ++ ": " ++ show (M.size m) ++ " " ++ show (length ds))
