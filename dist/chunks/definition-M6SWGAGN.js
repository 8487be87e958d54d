import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a,b}from"./chunk-BGCLXP5O.js";import"./chunk-IVTA2RQT.js";import"./chunk-XQCYQ7BV.js";import"./chunk-JNWCXACB.js";import"./chunk-UCXDIBA5.js";import"./chunk-OXAQ6FNM.js";import"./chunk-4UK4QWW5.js";import"./chunk-AGOBB62V.js";import"./chunk-XBPPTJU7.js";export{b as action,a as post};
