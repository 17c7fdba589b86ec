-- gc.hs: heavy allocation. Short-lived lists cause many minor GCs (more so
-- with a small -A); a growing, retained Map is promoted and causes several
-- major GCs. Deterministic output.
import qualified Data.Map.Strict as M
import Data.List (foldl')

rounds :: Int
rounds = 12

-- Lots of short-lived garbage.
churn :: Int -> Int
churn r = foldl' (+) 0 [ x * r `mod` 7 | x <- [1 .. 60000 :: Int] ]

main :: IO ()
main = do
  let step (m, acc) r =
        let m' = foldl' (\mm k -> M.insert (k * rounds + r) (show k) mm) m [1 .. 2000 :: Int]
            acc' = acc + churn r
        in M.size m' `seq` acc' `seq` (m', acc')
      (final, total) = foldl' step (M.empty, 0) [1 .. rounds]
  putStrLn ("gc: size = " ++ show (M.size final) ++ ", churn = " ++ show total)
